package com.payorch.connectors.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The sandbox with `webhooks: off` (ApiTest's setting): charges are settled, nothing is sent. */
class SandboxWebhooksOffIT extends ApiTest {

    private static final String SECRET = "whsec_d0BFmsU0VGMdJ9HDLxiqpaqFttUk0N9DueT0Sgghp/I=";
    private static final WebhookReceiver receiver = new WebhookReceiver(SECRET);

    @DynamicPropertySource
    static void sandboxWouldDeliverToTheReceiver(DynamicPropertyRegistry registry) {
        registry.add("payments.gateway.sandbox.webhook-secret", () -> SECRET);
        registry.add("payments.gateway.sandbox.webhook-url", () -> receiver.url().toString());
        registry.add("payments.gateway.sandbox.webhook-delay", () -> "PT0.2S");
        registry.add("payments.gateway.sandbox.poll-interval", () -> "PT0.1S");
    }

    @Test
    void chargesAreSettledButNoWebhookIsSent() {
        String succeeded = createPayment("pm_card_ok");
        String declined = createPayment("pm_card_declined");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertCharge(succeeded, "succeeded", null);
            assertCharge(declined, "failed", "card_declined");
        });

        // Long enough for several polls of a dispatcher that should not be running.
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> receiver.all().isEmpty());
        assertThat(count("select count(*) from sandbox_charges where payment_id in ($1, $2) and webhooks_due",
                succeeded, declined)).isZero();
    }

    private void assertCharge(String paymentId, String status, String failureReason) {
        client.get().uri("/v1/sandbox/charges?paymentId=" + paymentId).header("Authorization", "Bearer " + DEMO_KEY)
                .exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.data.length()").isEqualTo(1)
                .jsonPath("$.data[0].status").isEqualTo(status)
                .jsonPath("$.data[0].failureReason").isEqualTo(failureReason);
    }

    private String createPayment(String paymentMethod) {
        return createPayment(unique("bk"), paymentMethod);
    }
}
