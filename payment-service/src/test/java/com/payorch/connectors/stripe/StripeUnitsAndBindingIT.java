package com.payorch.connectors.stripe;

import static com.payorch.connectors.stripe.StripeFixture.charge;
import static com.payorch.connectors.stripe.StripeFixture.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeStripe;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.CurrencyUnits;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * Issue 22 findings 2, 5 and 6 on Stripe: amounts in Stripe's units both ways (its published currency table), the
 * attempt an event names through `metadata.attempt`, events about PaymentIntents this service did not make, and
 * refunds Stripe reports failed after they succeeded.
 */
class StripeUnitsAndBindingIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final StripeFixture fixture = new StripeFixture();
    private final FakeStripe stripe = fixture.stripe;

    @AfterEach
    void close() {
        fixture.close();
    }

    private ConnectorNotification eventAbout(String type, Map<String, Object> object) {
        List<ConnectorNotification> parsed = fixture.receive(FakeStripe.event(unique("evt"), type, object,
                FakeStripe.API_VERSION));
        assertThat(parsed).hasSize(1);
        return parsed.get(0);
    }

    @Test
    void theAttemptAPaymentIntentWasCreatedForComesBackFromItsEvents() {
        String paymentId = unique("pay");
        ChargeRequest second = charge(paymentId, 2, 12000, "JPY", "pm_card_visa_bind");
        GatewayOutcome charged = fixture.gateway.submit(second).block(TIMEOUT);

        assertThat(stripe.createdWith(second.idempotencyKey()))
                .containsEntry("metadata[payment_id]", paymentId).containsEntry("metadata[attempt]", "2");
        ConnectorNotification notification = eventAbout("payment_intent.succeeded", stripe.intentOf(paymentId, 2));
        assertThat(notification.paymentId()).isEqualTo(paymentId);
        assertThat(notification.attempt()).isEqualTo(2);
        assertThat(notification.reference()).isEqualTo(charged.reference());
        assertThat(notification.status()).isEqualTo(GatewayStatus.SUCCEEDED);
    }

    @Test
    void anEventAboutAPaymentIntentThisServiceDidNotMakeNamesNoPaymentAndNoAttempt() {
        Map<String, Object> foreign = new LinkedHashMap<>(stripe.intentOf(submitted("pm_card_visa_foreign"), 1));
        foreign.put("metadata", Map.of("order", "shop-42"));

        ConnectorNotification notification = eventAbout("payment_intent.succeeded", foreign);
        assertThat(notification.paymentId()).isNull();
        assertThat(notification.attempt()).isNull();
        assertThat(notification.refundId()).isNull();
    }

    @Test
    void anAttemptThatIsNotOneOfOursNamesNoAttempt() {
        Map<String, Object> odd = new LinkedHashMap<>(stripe.intentOf(submitted("pm_card_visa_odd"), 1));
        odd.put("metadata", Map.of("payment_id", "pay_x", "attempt", "first"));

        assertThat(eventAbout("payment_intent.succeeded", odd).attempt()).isNull();
    }

    private String submitted(String method) {
        String paymentId = unique("pay");
        fixture.gateway.submit(charge(paymentId, 1, 12000, "JPY", method)).block(TIMEOUT);
        return paymentId;
    }

    @Test
    void jpyIskAndHufAmountsGoOutInStripesUnitsAndComeBackExactly() {
        assertRoundTrip("JPY", 12000, 12000);
        assertRoundTrip("ISK", 5, 500);
        assertRoundTrip("HUF", 12345, 12345);
        assertRoundTrip("MGA", 12300, 123);
        assertRoundTrip("KWD", 5120, 5120);
    }

    private void assertRoundTrip(String currency, long iso, long atStripe) {
        String paymentId = unique("pay");
        ChargeRequest request = charge(paymentId, 1, iso, currency, "pm_card_visa_units");
        fixture.gateway.submit(request).block(TIMEOUT);

        Map<String, Object> intent = stripe.intentOf(paymentId, 1);
        assertThat(((Number) intent.get("amount")).longValue()).as(currency + " at Stripe").isEqualTo(atStripe);
        ConnectorNotification notification = eventAbout("payment_intent.succeeded", intent);
        assertThat(notification.amount()).as(currency + " back in ISO units").isEqualTo(iso);
        assertThat(notification.currency()).isEqualTo(currency);
    }

    @Test
    void anAmountStripeCannotTakeExactlyIsRefusedAndNothingIsSent() {
        CurrencyUnits units = fixture.connector.currencyUnits();
        assertThat(units.maxDigits()).isEqualTo(8);
        assertThat(units.toConnector(99_999_999, "USD")).hasValue(99_999_999);
        assertThat(units.toConnector(123_456_789, "USD")).isEmpty();
        assertThat(units.toConnector(1_000_000, "ISK")).isEmpty();
        assertThat(units.toConnector(12345, "MGA")).isEmpty();
        assertThat(units.toIso(550, "ISK")).isEmpty();
        assertThat(units.source()).contains("https://docs.stripe.com/currencies");

        for (ChargeRequest refused : List.of(charge(unique("pay"), 1, 123_456_789, "USD", "pm_card_visa_big"),
                charge(unique("pay"), 1, 12345, "MGA", "pm_card_visa_mga"),
                charge(unique("pay"), 1, 5124, "KWD", "pm_card_visa_kwd"))) {
            StepVerifier.create(fixture.gateway.submit(refused))
                    .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ConnectorRefusedException.class)
                            .hasMessageContaining(Long.toString(refused.amount()))
                            .hasMessageContaining("nothing sent"))
                    .verify(TIMEOUT);
            assertThat(stripe.intentsFor(refused.paymentId())).isZero();
        }
    }

    @Test
    void aRefundGoesOutInStripesUnitsAndItsLaterFailureIsAFailedRefundNotification() {
        String paymentId = unique("pay");
        GatewayOutcome charged = fixture.gateway.submit(charge(paymentId, 1, 7, "ISK", "pm_card_visa_refund"))
                .block(TIMEOUT);
        RefundRequest request = new RefundRequest(unique("re"), paymentId, 1, charged.reference(), 7, "ISK",
                StripeFixture.MERCHANT, StripeGateway.NAME);
        RefundOutcome refunded = fixture.gateway.refund(request).block(TIMEOUT);
        assertThat(refunded.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(stripe.refundsOf(charged.reference())).singleElement()
                .satisfies(refund -> assertThat(((Number) refund.get("amount")).longValue()).isEqualTo(700));

        Map<String, Object> failed = stripe.failRefund(refunded.reference(), "lost_or_stolen_card");
        for (String type : List.of("refund.failed", "refund.updated")) {
            ConnectorNotification notification = eventAbout(type, failed);
            assertThat(notification.refundId()).as(type).isEqualTo(request.refundId());
            assertThat(notification.status()).as(type).isEqualTo(GatewayStatus.FAILED);
            assertThat(notification.failureReason()).as(type).isEqualTo("lost_or_stolen_card");
            assertThat(notification.amount()).as(type).isEqualTo(7);
            assertThat(notification.currency()).as(type).isEqualTo("ISK");
        }
    }
}
