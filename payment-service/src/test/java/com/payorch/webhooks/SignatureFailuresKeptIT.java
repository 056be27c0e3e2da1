package com.payorch.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.SignedWebhooks;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 22 finding 6: a signature failure is never silent. A request whose signature does not verify, and an item
 * that fails its own signature inside an accepted batch, are each counted
 * ({@code payments_webhook_signature_failures_total{connector}}) and kept in {@code webhook_signature_failures}.
 */
class SignatureFailuresKeptIT extends ApiTest {

    @Autowired
    private MeterRegistry registry;

    @Autowired
    private RecordedSignatureFailures failures;

    @Test
    void aRequestWhoseSignatureFailsIsRefusedCountedAndKept() {
        long keptBefore = count("select count(*) from webhook_signature_failures where connector = 'sandbox'");
        double countedBefore = counted("sandbox");
        String body = webhookBody("payment.succeeded", "pay_forged", "ch_forged", 12000, "JPY");

        client.post().uri("/v1/webhooks/sandbox")
                .headers(h -> h.addAll(SignedWebhooks.sign("whsec_" + "c29tZW9uZSBlbHNlcyBzZWNyZXQ=", unique("msg"),
                        Instant.now(), body)))
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchange()
                .expectStatus().isUnauthorized();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(count(
                "select count(*) from webhook_signature_failures where connector = 'sandbox'"
                        + " and merchant_id is null and detail like '%did not verify%'")).isGreaterThan(keptBefore));
        assertThat(counted("sandbox")).isEqualTo(countedBefore + 1);
    }

    @Test
    void anItemWhoseSignatureFailsInsideABatchIsKeptWithItsMerchant() {
        String detail = "item " + unique("psp") + " matched no HMAC key";
        double countedBefore = counted("adyen");

        failures.record("adyen", "demo", detail);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(count(
                "select count(*) from webhook_signature_failures where connector = 'adyen' and merchant_id = 'demo'"
                        + " and detail = $1", detail)).isEqualTo(1));
        assertThat(counted("adyen")).isEqualTo(countedBefore + 1);
    }

    private double counted(String connector) {
        var counter = registry.find("payments.webhook.signature.failures").tag("connector", connector).counter();
        return counter == null ? 0 : counter.count();
    }
}
