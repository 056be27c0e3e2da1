package com.payorch.connectors.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.SignedWebhooks;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sandbox dispute webhooks sent by hand (the sandbox's own delivery is off, ApiTest's setting): a redelivered or
 * repeated report, reports out of order, a reversal, a charge the sandbox never made, a malformed report and a
 * forged one.
 */
class SandboxDisputeWebhooksIT extends ApiTest {

    private static final JsonMapper JSON = new JsonMapper();

    /** A pm_card_ok payment (JPY 12000), COMPLETED by its succeeded webhook. */
    private String completedPayment() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, 12000, "JPY")).expectStatus().isOk();
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
        return paymentId;
    }

    private static String dispute(String type, String paymentId, String chargeId, String disputeId) {
        return """
                {"type": "%s", "data": {"paymentId": "%s", "chargeId": "%s", "disputeId": "%s", "amount": 12000,
                 "currency": "JPY", "reason": "fraudulent", "evidenceDueBy": "2026-12-12T10:00:00Z"}}"""
                .formatted(type, paymentId, chargeId, disputeId);
    }

    private void sendOk(String webhookId, String body, String outcome) {
        sendWebhook(webhookId, body).expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo(outcome);
    }

    private JsonNode disputesOf(String paymentId) {
        return JSON.readTree(client.get().uri("/v1/payments/" + paymentId + "/disputes")
                .header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody()).path("data");
    }

    private long events(String paymentId, String type) {
        return count("select count(*) from events where payment_id = $1 and type = $2", paymentId, type);
    }

    private long disputeRows(String paymentId) {
        return count("select count(*) from disputes where payment_id = $1", paymentId);
    }

    @Test
    void theSameOpenedTwiceIsOneDisputeAndOneEvent() {
        String paymentId = completedPayment();
        String chargeId = latestChargeOf(paymentId);
        String webhookId = unique("msg");
        String body = dispute("dispute.opened", paymentId, chargeId, chargeId + "-dispute");

        sendOk(webhookId, body, "applied");
        sendOk(webhookId, body, "duplicate");
        // The same report under another webhook id (a connector that re-sends it anew) changes nothing either.
        sendOk(unique("msg"), body, "applied");

        JsonNode disputes = disputesOf(paymentId);
        assertThat(disputes.size()).isEqualTo(1);
        assertThat(disputes.get(0).path("status").asText()).isEqualTo("OPEN");
        assertThat(disputes.get(0).path("evidenceDueBy").asText()).isEqualTo("2026-12-12T10:00:00.000Z");
        assertThat(events(paymentId, "dispute.opened")).isEqualTo(1);
        assertThat(statusOf(paymentId)).as("a dispute is never the charge's outcome").isEqualTo("COMPLETED");
    }

    @Test
    void lostBeforeOpenedCreatesItLostAndTheLateOpenedChangesNothing() {
        String paymentId = completedPayment();
        String chargeId = latestChargeOf(paymentId);
        String disputeId = unique("dp");

        sendOk(unique("msg"), dispute("dispute.lost", paymentId, chargeId, disputeId), "applied");
        sendOk(unique("msg"), dispute("dispute.opened", paymentId, chargeId, disputeId), "applied");

        JsonNode disputes = disputesOf(paymentId);
        assertThat(disputes.size()).isEqualTo(1);
        assertThat(disputes.get(0).path("status").asText()).isEqualTo("LOST");
        assertThat(events(paymentId, "dispute.opened")).isEqualTo(1);
        assertThat(events(paymentId, "dispute.lost")).isEqualTo(1);
    }

    @Test
    void aLostDisputeWonLaterIsReversed() {
        String paymentId = completedPayment();
        String chargeId = latestChargeOf(paymentId);
        String disputeId = chargeId + "-dispute";

        sendOk(unique("msg"), dispute("dispute.opened", paymentId, chargeId, disputeId), "applied");
        sendOk(unique("msg"), dispute("dispute.lost", paymentId, chargeId, disputeId), "applied");
        sendOk(unique("msg"), dispute("dispute.won", paymentId, chargeId, disputeId), "applied");

        JsonNode disputes = disputesOf(paymentId);
        assertThat(disputes.size()).isEqualTo(1);
        assertThat(disputes.get(0).path("status").asText()).isEqualTo("WON");
        assertThat(events(paymentId, "dispute.won")).isEqualTo(1);
        assertThat(count("select amount_disputed from payments where id = $1", paymentId)).isZero();
    }

    /** One dispute named for two payments is an anomaly for a person, never a failure redelivered for ever. */
    @Test
    void aDisputeReferenceAlreadyOfAnotherPaymentIsRejectedAndChangesNothing() {
        String first = completedPayment();
        String second = completedPayment();
        String disputeId = latestChargeOf(first) + "-dispute";
        sendOk(unique("msg"), dispute("dispute.opened", first, latestChargeOf(first), disputeId), "applied");

        String webhookId = unique("msg");
        sendOk(webhookId, dispute("dispute.lost", second, latestChargeOf(second), disputeId), "rejected");

        assertThat(disputeRows(second)).isZero();
        assertThat(disputesOf(first).get(0).path("status").asText()).isEqualTo("OPEN");
        assertThat(count("select amount_disputed from payments where id = $1", second)).isZero();
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1 and outcome = 'rejected'",
                webhookId)).isEqualTo(1);
    }

    @Test
    void aDisputeOfAChargeTheSandboxNeverMadeIsIgnored() {
        String paymentId = completedPayment();
        String webhookId = unique("msg");

        sendOk(webhookId, dispute("dispute.opened", paymentId, "ch_never_made", "ch_never_made-dispute"), "ignored");

        assertThat(disputeRows(paymentId)).isZero();
        assertThat(events(paymentId, "dispute.opened")).isZero();
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1 and outcome = 'ignored'",
                webhookId)).isEqualTo(1);
    }

    @Test
    void aMalformedDisputeIsRefusedAndNothingRecorded() {
        String paymentId = completedPayment();
        String chargeId = latestChargeOf(paymentId);
        String webhookId = unique("msg");
        String noDisputeId = """
                {"type": "dispute.opened", "data": {"paymentId": "%s", "chargeId": "%s", "amount": 12000,
                 "currency": "JPY"}}""".formatted(paymentId, chargeId);
        String noAmount = """
                {"type": "dispute.opened", "data": {"paymentId": "%s", "chargeId": "%s", "disputeId": "dp_1",
                 "currency": "JPY"}}""".formatted(paymentId, chargeId);

        for (String body : new String[] {noDisputeId, noAmount}) {
            sendWebhook(webhookId, body).expectStatus().isBadRequest()
                    .expectBody().jsonPath("$.code").isEqualTo("webhook_invalid");
        }

        assertThat(disputeRows(paymentId)).isZero();
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1", webhookId)).isZero();
    }

    @Test
    void aForgedDisputeIsRejectedAndCounted() {
        String paymentId = completedPayment();
        String chargeId = latestChargeOf(paymentId);
        String body = dispute("dispute.opened", paymentId, chargeId, chargeId + "-dispute");
        long keptBefore = count("select count(*) from webhook_signature_failures where connector = 'sandbox'");

        client.post().uri("/v1/webhooks/sandbox")
                .headers(h -> h.addAll(SignedWebhooks.sign("whsec_c29tZW9uZSBlbHNlcyBzZWNyZXQ=", unique("msg"),
                        Instant.now(), body)))
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchange()
                .expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.code").isEqualTo("webhook_signature_invalid");

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(count(
                "select count(*) from webhook_signature_failures where connector = 'sandbox'")).isGreaterThan(
                keptBefore));
        assertThat(disputeRows(paymentId)).isZero();
    }
}
