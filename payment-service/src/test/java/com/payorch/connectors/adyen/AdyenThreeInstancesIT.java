package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeAdyen;
import com.payorch.testsupport.ServiceInstances;
import com.payorch.testsupport.TestQueries;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;

/**
 * The Adyen connector across three service instances sharing one database and one (fake) Adyen account: duplicate
 * client POSTs and duplicate notification batches spread over the instances make one payment, one Adyen payment,
 * one booking activation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdyenThreeInstancesIT {

    private static final String API_KEY = "AQE_FakeClusterAdyenKeyDoNotLog_0005";
    private static final String ACCOUNT = "PayorchClusterECOM";
    private static final String HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";

    private final FakeAdyen adyen = new FakeAdyen().acceptKey(API_KEY);
    private ServiceInstances instances;
    private TestQueries queries;

    @BeforeAll
    void startThreeInstances() {
        instances = ServiceInstances.start(3, "adyen_cluster_tests", List.of(
                "--payments.merchants.cluster.api-key=sk_test_cluster",
                "--payments.merchants.cluster.routing=adyen",
                "--payments.merchants.cluster.connectors.adyen.api-key=" + API_KEY,
                "--payments.merchants.cluster.connectors.adyen.merchant-account=" + ACCOUNT,
                "--payments.merchants.cluster.connectors.adyen.hmac-key=" + HMAC_KEY,
                "--payments.connectors.adyen.checkout-url=" + adyen.checkoutUrl()));
        queries = instances.queries();
    }

    @AfterAll
    void stop() {
        instances.close();
        adyen.close();
    }

    @Test
    void duplicatePostsAndNotificationsAcrossInstancesMakeOnePaymentOneAdyenPaymentOneActivation() {
        String booking = "bk_" + UUID.randomUUID().toString().substring(0, 12);
        String key = "key_" + UUID.randomUUID();
        String body = """
                {"bookingId": "%s", "amount": 1000, "currency": "EUR", "paymentMethod": "pm_card_processing_cl"}"""
                .formatted(booking);

        List<Integer> statuses = instances.postPaymentConcurrently("sk_test_cluster", key, body, 30);
        assertThat(statuses).isSubsetOf(201, 409).contains(201);
        assertThat(queries.count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
        String paymentId = queries.paymentOfBooking(booking);
        assertThat(adyen.paymentsFor(paymentId)).hasSize(1);
        assertThat(queries.statusOf(paymentId)).isEqualTo("PROCESSING");

        String psp = queries.text("select reference from payment_attempts where payment_id = $1", paymentId);
        String batch = FakeAdyen.notification(ACCOUNT, HMAC_KEY, List.of(Map.of("pspReference", psp,
                "merchantReference", paymentId, "success", true, "value", 1000L, "currency", "EUR", "reason", "")));
        List<String> answers = Flux.range(0, 30)
                .flatMap(i -> instances.client(i).post().uri("/v1/webhooks/adyen/cluster")
                        .header("Content-Type", "application/json")
                        .bodyValue(batch)
                        .retrieve()
                        .bodyToMono(String.class), 30)
                .collectList()
                .block(Duration.ofSeconds(60));

        assertThat(answers).hasSize(30).containsOnly("[accepted]");
        assertThat(queries.statusOf(paymentId)).isEqualTo("COMPLETED");
        assertThat(queries.count("select count(*) from webhook_receipts where payment_id = $1", paymentId))
                .isEqualTo(1);
        assertThat(queries.count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'",
                paymentId)).isEqualTo(1);
        assertThat(queries.count("select count(*) from events where booking_id = $1 and type = 'booking.activated'",
                booking)).isEqualTo(1);
        assertThat(adyen.paymentsFor(paymentId)).hasSize(1);
    }
}
