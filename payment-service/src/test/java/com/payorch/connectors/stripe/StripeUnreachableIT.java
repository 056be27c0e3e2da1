package com.payorch.connectors.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * Stripe's and Adyen's addresses refuse connections (nothing listens on the port): the submit certainly did not
 * reach them.
 * With a second connector on the route the attempt moves there, recorded on the payment and the attempt; without
 * one it stays PENDING at Stripe for recovery.
 */
@TestPropertySource(properties = {
        "payments.merchants.twoway.api-key=sk_test_twoway",
        "payments.merchants.twoway.connectors.stripe.secret-key=sk_test_51UnreachableTwoWaySecret",
        "payments.merchants.twoway.routing=stripe,sandbox",
        "payments.merchants.oneway.api-key=sk_test_oneway",
        "payments.merchants.oneway.connectors.stripe.secret-key=sk_test_51UnreachableOneWaySecret",
        "payments.merchants.oneway.routing=stripe",
        "payments.merchants.adyentwoway.api-key=sk_test_adyentwoway",
        "payments.merchants.adyentwoway.connectors.adyen.api-key=AQE_UnreachableAdyenKey",
        "payments.merchants.adyentwoway.connectors.adyen.merchant-account=PayorchTestECOM",
        "payments.merchants.adyentwoway.routing=adyen,stripe,sandbox",
        "payments.recovery.pending-after=PT1H",
        "payments.gateway.sandbox.webhook-delay=PT1H"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class StripeUnreachableIT extends ApiTest {

    @DynamicPropertySource
    static void closedPort(DynamicPropertyRegistry registry) throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String base = "http://127.0.0.1:" + port;
        registry.add("payments.connectors.stripe.api-base", () -> base);
        registry.add("payments.connectors.adyen.checkout-url", () -> base + "/v71");
    }

    private String body(String booking) {
        return """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_visa"}"""
                .formatted(booking);
    }

    private String value(String sql, String booking) {
        return db.sql(sql).bind(0, booking).map(row -> String.valueOf(row.get(0))).one()
                .block(Duration.ofSeconds(10));
    }

    @Test
    void aRefusedConnectionMovesTheAttemptToTheNextConnectorWhichChargesOnce() {
        String booking = unique("bk");
        postPayment("sk_test_twoway", unique("key"), body(booking)).exchange()
                .expectStatus().isCreated()
                .expectBody().jsonPath("$.connector").isEqualTo("sandbox").jsonPath("$.status").isEqualTo("PROCESSING")
                .jsonPath("$.attempts.length()").isEqualTo(1)
                .jsonPath("$.attempts[0].connector").isEqualTo("sandbox");

        assertThat(value("select a.connector from payment_attempts a join payments p on p.id = a.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo("sandbox");
        assertThat(value("select a.sends_in_doubt from payment_attempts a join payments p on p.id = a.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo("0");
        assertThat(count("select count(*) from sandbox_charges c join payments p on p.id = c.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo(1);
    }

    @Test
    void refusedConnectionsAtAdyenThenStripeMoveTheAttemptAlongTheWholeRoute() {
        String booking = unique("bk");
        postPayment("sk_test_adyentwoway", unique("key"), body(booking)).exchange()
                .expectStatus().isCreated()
                .expectBody().jsonPath("$.connector").isEqualTo("sandbox").jsonPath("$.status").isEqualTo("PROCESSING");

        assertThat(count("select count(*) from sandbox_charges c join payments p on p.id = c.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo(1);
    }

    @Test
    void aRefusedConnectionWithNoOtherConnectorLeavesThePaymentPendingAtStripe() {
        String booking = unique("bk");
        postPayment("sk_test_oneway", unique("key"), body(booking)).exchange()
                .expectStatus().isCreated()
                .expectBody().jsonPath("$.connector").isEqualTo("stripe").jsonPath("$.status").isEqualTo("PENDING");

        assertThat(count("select count(*) from sandbox_charges c join payments p on p.id = c.payment_id"
                + " where p.booking_id = $1", booking)).isZero();
    }
}
