package com.payorch.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.GatewayStatus;
import com.payorch.payments.internal.AttemptStore;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * Issue 22, finding 5 and the Stripe "foreign object" rule: a notification is bound to the attempt it names, or to
 * the attempt holding its reference, never by elimination; one about no payment of the endpoint's merchant is
 * answered "ignored" (recorded, counted), never 404, except at the sandbox's own endpoint.
 */
@TestPropertySource(properties = {
        "payments.recovery.interval=PT1H",
        "payments.gateway.sandbox.webhook-delay=PT1H"})
@OwnSchema("exact_binding_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class ExactBindingIT extends ApiTest {

    @Autowired
    WebhookApplier webhooks;
    @Autowired
    AttemptStore attempts;

    /** Before: both attempts lacked a reference, so the elimination could not decide (503) or chose wrongly. */
    @Test
    void aNotificationNamingAnAttemptIsBoundToItAndOneNamingNoneWithAnUnknownChargeIsIgnored() {
        String paymentId = twoAttemptsWithoutReferences();

        WebhookOutcome first = apply(notification(paymentId, 1, "ch_late_1", GatewayStatus.SUCCEEDED));

        assertThat(first).as("attempt 1 took the money after attempt 2 began: an orphaned charge")
                .isEqualTo(WebhookOutcome.REJECTED);
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and number = 1"
                + " and reference = 'ch_late_1' and orphaned_at is not null", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and number = 2"
                + " and reference is null and status = 'PENDING'", paymentId)).isEqualTo(1);

        ConnectorNotification namesNoAttempt = notification(paymentId, null, "ch_never_made", GatewayStatus.SUCCEEDED);
        assertThat(apply(namesNoAttempt)).isEqualTo(WebhookOutcome.IGNORED);
        assertThat(statusOf(paymentId)).isEqualTo("PENDING");
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and number = 2"
                + " and reference is null", paymentId)).as("attempt 2 was not chosen by elimination").isEqualTo(1);
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1 and payment_id = $2"
                + " and outcome = 'ignored'", namesNoAttempt.receiptId(), paymentId)).isEqualTo(1);
    }

    @Test
    void aNotificationNamingAnAttemptThePaymentDoesNotHaveAtThatConnectorChangesNothing() {
        String paymentId = createPayment(unique("bk"), "pm_card_unavailable");

        assertThat(apply(notification(paymentId, 7, "ch_x", GatewayStatus.SUCCEEDED)))
                .isEqualTo(WebhookOutcome.IGNORED);
        assertThat(webhooks.apply("stripe", "demo", notification(paymentId, 1, "pi_x", GatewayStatus.SUCCEEDED))
                .block(Duration.ofSeconds(10))).as("attempt 1 is at the sandbox, not at Stripe")
                .isEqualTo(WebhookOutcome.IGNORED);
        assertThat(statusOf(paymentId)).isEqualTo("PENDING");
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and reference is null",
                paymentId)).isEqualTo(1);
    }

    /** Before: 404, and Stripe resends an event it could not deliver for three days. */
    @Test
    void anEventAboutAPaymentThisServiceDidNotCreateIsIgnoredAndRecordedAtAPerMerchantEndpoint() {
        ConnectorNotification foreign = new ConnectorNotification(unique("evt"), "payment_intent.succeeded", null,
                unique("pi"), GatewayStatus.SUCCEEDED, 5000, "EUR", null);
        ConnectorNotification unknownPayment = new ConnectorNotification(unique("evt"), "payment_intent.succeeded",
                "pay_unknown", unique("pi"), GatewayStatus.SUCCEEDED, 5000, "EUR", null);

        assertThat(webhooks.apply("stripe", "demo", foreign).block(Duration.ofSeconds(10)))
                .isEqualTo(WebhookOutcome.IGNORED);
        assertThat(webhooks.apply("stripe", "demo", unknownPayment).block(Duration.ofSeconds(10)))
                .isEqualTo(WebhookOutcome.IGNORED);
        assertThat(webhooks.apply("stripe", "demo", unknownPayment).block(Duration.ofSeconds(10)))
                .isEqualTo(WebhookOutcome.DUPLICATE);
        assertThat(count("select count(*) from webhook_receipts where webhook_id in ($1, $2) and payment_id is null"
                + " and outcome = 'ignored'", "foreign:stripe:demo:" + foreign.receiptId(),
                "foreign:stripe:demo:" + unknownPayment.receiptId())).isEqualTo(2);
    }

    @Test
    void anotherMerchantsPaymentIsNotTouched() {
        String paymentId = createPayment(unique("bk"), "pm_card_unavailable");

        assertThat(webhooks.apply("sandbox", "another-merchant", notification(paymentId, 1, "ch_y",
                GatewayStatus.SUCCEEDED)).block(Duration.ofSeconds(10))).isEqualTo(WebhookOutcome.IGNORED);

        assertThat(statusOf(paymentId)).isEqualTo("PENDING");
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and reference is null",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from webhook_receipts where payment_id = $1", paymentId)).isZero();

        // The rightful delivery of the same notification is applied: the misdirected one did not take its receipt.
        ConnectorNotification rightful = notification(paymentId, 1, "ch_y", GatewayStatus.SUCCEEDED);
        ConnectorNotification misdirected = new ConnectorNotification(rightful.receiptId(), rightful.type(),
                paymentId, 1, "ch_y", GatewayStatus.SUCCEEDED, 12000, "JPY", null, null);
        assertThat(webhooks.apply("sandbox", "another-merchant", misdirected).block(Duration.ofSeconds(10)))
                .isEqualTo(WebhookOutcome.IGNORED);
        assertThat(webhooks.apply("sandbox", "demo", rightful).block(Duration.ofSeconds(10)))
                .isEqualTo(WebhookOutcome.APPLIED);
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
    }

    /** The marking has no status condition of its own: it must refuse a COMPLETED payment's current attempt. */
    @Test
    void aCompletedPaymentsCurrentAttemptIsNeverMarkedOrphaned() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        String charge = latestChargeOf(paymentId);
        assertThat(apply(notification(paymentId, 1, charge, GatewayStatus.SUCCEEDED)))
                .isEqualTo(WebhookOutcome.APPLIED);

        assertThat(attempts.markOrphaned(paymentId, 1, "sandbox", charge).block(Duration.ofSeconds(10))).isFalse();
        assertThat(apply(notification(paymentId, 1, charge, GatewayStatus.SUCCEEDED)))
                .isEqualTo(WebhookOutcome.IGNORED);
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and orphaned_at is null"
                + " and status = 'SUCCEEDED'", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from refunds where payment_id = $1", paymentId)).isZero();
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
    }

    @Test
    void theSandboxsOwnEndpointStillAnswers404ForAnUnknownPayment() {
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", "pay_unknown", "ch_unknown", 12000, "JPY"))
                .expectStatus().isNotFound();
    }

    /** A payment whose attempts 1 (FAILED) and 2 (PENDING) are both at the sandbox without a reference. */
    private String twoAttemptsWithoutReferences() {
        String paymentId = createPayment(unique("bk"), "pm_card_unavailable");
        ConnectorNotification declined = new ConnectorNotification(unique("msg"), "payment.failed", paymentId, 1,
                "ch_declined_" + paymentId, GatewayStatus.FAILED, 12000, "JPY", "card_declined", null);
        assertThat(apply(declined)).isEqualTo(WebhookOutcome.APPLIED);
        // The decline's reference is on attempt 1 now; take it off again, as if its answer had named none.
        queries.update("update payment_attempts set reference = null where payment_id = $1", paymentId);
        client.post().uri("/v1/payments/" + paymentId + "/retry")
                .header("Authorization", "Bearer " + DEMO_KEY).header("Idempotency-Key", unique("retry"))
                .exchange();
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and reference is null",
                paymentId)).isEqualTo(2);
        return paymentId;
    }

    private WebhookOutcome apply(ConnectorNotification notification) {
        return webhooks.apply("sandbox", notification).block(Duration.ofSeconds(10));
    }

    private static ConnectorNotification notification(String paymentId, Integer attempt, String reference,
                                                      GatewayStatus status) {
        return new ConnectorNotification("msg_" + java.util.UUID.randomUUID(), "payment." + status.name()
                .toLowerCase(java.util.Locale.ROOT), paymentId, attempt, reference, status, 12000, "JPY",
                status == GatewayStatus.FAILED ? "card_declined" : null, null);
    }
}
