package com.payorch.connectors.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sandbox in `webhooks: auto`, delivering to this service: a `pm_card_disputed` payment completes, then its
 * charge is disputed and the dispute lost, all through the sandbox's signed webhooks and the webhook pipeline.
 */
class SandboxDisputesIT extends ApiTest {

    private static final JsonMapper JSON = new JsonMapper();
    private static final Duration WAIT = Duration.ofSeconds(30);

    @DynamicPropertySource
    static void sandboxDeliversToThisService(DynamicPropertyRegistry registry) {
        registry.add("payments.gateway.sandbox.webhooks", () -> "auto");
        registry.add("payments.gateway.sandbox.webhook-delay", () -> "PT0.2S");
        registry.add("payments.gateway.sandbox.poll-interval", () -> "PT0.1S");
    }

    @Test
    void aDisputedCardCompletesThenItsDisputeOpensAndIsLost() {
        String paymentId = createPayment(unique("bk"), "pm_card_disputed");

        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode disputes = read("/v1/payments/" + paymentId + "/disputes").path("data");
            assertThat(disputes.size()).isEqualTo(1);
            assertThat(disputes.get(0).path("status").asText()).isEqualTo("LOST");
        });
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");

        JsonNode dispute = read("/v1/payments/" + paymentId + "/disputes").path("data").get(0);
        String chargeId = latestChargeOf(paymentId);
        assertThat(dispute.path("amount").asLong()).isEqualTo(12000);
        assertThat(dispute.path("currency").asText()).isEqualTo("JPY");
        assertThat(dispute.path("reason").asText()).isEqualTo("fraudulent");
        assertThat(dispute.path("connector").asText()).isEqualTo("sandbox");
        assertThat(dispute.path("connectorReference").asText()).isEqualTo(chargeId + "-dispute");
        Instant created = Instant.parse(dispute.path("createdAt").asText());
        assertThat(Instant.parse(dispute.path("evidenceDueBy").asText()))
                .isBetween(created.plus(Duration.ofDays(7)).minusSeconds(60),
                        created.plus(Duration.ofDays(7)).plusSeconds(60));
        assertThat(read("/v1/payments/" + paymentId).path("amountDisputed").asLong()).isEqualTo(12000);

        assertThat(count("select count(*) from events where payment_id = $1 and type = 'dispute.opened'", paymentId))
                .isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'dispute.lost'", paymentId))
                .isEqualTo(1);
        assertThat(count("select count(*) from webhook_receipts where webhook_id in ($1, $2) and outcome = 'applied'",
                "msg_" + chargeId + "_dispute_opened", "msg_" + chargeId + "_dispute_lost")).isEqualTo(2);
    }

    private JsonNode read(String uri) {
        return JSON.readTree(client.get().uri(uri).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody());
    }
}
