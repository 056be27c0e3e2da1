package com.payorch.chaos.world;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeStripe;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The PSP's memory of keys on a link to the fake Stripe: a key is honoured, then, while the PSP forgets and the key is
 * older than the memory's limit, the same request charges again (once: the PSP then remembers the new charge), and
 * once it no longer forgets the old key is honoured again.
 */
class IdempotencyKeyMemoryIT {

    private static final String SECRET = "sk_test_51KeyMemoryCampaignTestDoNotLog01";

    @Test
    void aForgottenKeyChargesAgainOnceAndAnHonouredKeyNever() throws Exception {
        IdempotencyKeyMemory memory = new IdempotencyKeyMemory(Duration.ofMillis(1));
        try (FakeStripe stripe = new FakeStripe(0).acceptKey(SECRET);
             LinkProxy link = LinkProxy.start("test.stripe", 0, URI.create(stripe.baseUrl()).getPort()).keys(memory)) {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            String paymentId = "pay_keymemory" + System.nanoTime();

            assertThat(charge(http, link, paymentId)).isEqualTo(200);
            assertThat(charge(http, link, paymentId)).isEqualTo(200);
            assertThat(stripe.intentsFor(paymentId)).isEqualTo(1);

            memory.forget(true);
            assertThat(charge(http, link, paymentId)).isEqualTo(200);
            assertThat(charge(http, link, paymentId)).isEqualTo(200);
            assertThat(stripe.intentsFor(paymentId)).as("the forgotten key charged again, once").isEqualTo(2);
            assertThat(memory.forgotten()).isEqualTo(2);
            assertThat(stripe.intents()).extracting(intent -> stripe.idempotencyKeyOf((String) intent.get("id")))
                    .containsExactly(paymentId, paymentId + "-forgotten");

            memory.forget(false);
            assertThat(charge(http, link, paymentId)).isEqualTo(200);
            assertThat(stripe.intentsFor(paymentId)).isEqualTo(2);
        }
    }

    private static int charge(HttpClient http, LinkProxy link, String paymentId) throws Exception {
        String form = "amount=1200&currency=usd&payment_method=pm_card_visa&confirm=true&metadata[payment_id]="
                + paymentId + "&metadata[attempt]=1";
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + link.port()
                        + "/v1/payment_intents"))
                .header("Authorization", "Bearer " + SECRET)
                .header("Idempotency-Key", paymentId)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }
}
