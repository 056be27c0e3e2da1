package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.SandboxFaults;
import com.payorch.testsupport.SecondConnection;
import com.payorch.testsupport.SignedWebhooks;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Sinks;

/**
 * The database backend serving a request is killed (`pg_terminate_backend`) in the middle of its transaction,
 * while it waits on a row lock held by a second connection. Nothing of that transaction survives, and the
 * client's or gateway's retry ends in exactly one transition and one charge.
 */
class BackendKilledMidTransactionIT extends ApiTest {

    @Autowired
    SandboxFaults faults;

    private CompletableFuture<Integer> sendAsync(String path, String body, HttpHeaders headers) {
        return WebClient.builder().baseUrl("http://localhost:" + port).build()
                .post().uri(path)
                .headers(h -> h.addAll(headers))
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value()))
                .toFuture();
    }

    private void killTheBackendWaitingOn(SecondConnection second, String queryFragment) throws Exception {
        AtomicInteger pid = new AtomicInteger(-1);
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> { pid.set(second.backendWaitingOnLock(queryFragment)); return pid.get() > 0; });
        second.terminate(pid.get());
        second.rollback();
    }

    @Test
    void aWebhookWhoseBackendDiesIsAppliedOnceWhenRedelivered() throws Exception {
        String booking = unique("bk");
        String paymentId = createPayment(booking, "pm_card_ok");
        String webhookId = unique("msg");
        String body = webhookBody("payment.succeeded", paymentId, 12000, "JPY");

        try (SecondConnection second = new SecondConnection()) {
            // NO KEY UPDATE lets the webhook's receipt (a foreign key to the payment) go in; its UPDATE then waits.
            second.lock("select * from payments where id = ? for no key update", paymentId);
            CompletableFuture<Integer> delivery =
                    sendAsync("/v1/webhooks/sandbox", body, SignedWebhooks.sign(WEBHOOK_SECRET, webhookId, Instant.now(), body));
            killTheBackendWaitingOn(second, "update payments");
            assertThat(delivery.get()).isBetween(500, 599);
        }
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1", webhookId)).isZero();
        assertThat(count("select version from payments where id = $1", paymentId)).isEqualTo(2);

        sendWebhook(webhookId, body).expectStatus().isOk().expectBody().json("{\"status\":\"applied\"}", true);
        sendWebhook(webhookId, body).expectStatus().isOk().expectBody().json("{\"status\":\"duplicate\"}", true);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking))
                .isEqualTo(1);
    }

    @Test
    void aPaymentRequestWhoseBackendDiesIsResumedByTheClientsRetryWithOneCharge() throws Exception {
        String booking = unique("bk");
        String key = unique("key");
        String body = paymentBody(booking);
        HttpHeaders headers = new HttpHeaders();
        headers.set("Authorization", "Bearer " + DEMO_KEY);
        headers.set("Idempotency-Key", key);

        try (SecondConnection second = new SecondConnection()) {
            Sinks.Empty<Void> gate = faults.holdSubmits();
            CompletableFuture<Integer> request;
            try {
                request = sendAsync("/v1/payments", body, headers);
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> count(
                        "select count(*) from idempotency_keys where idempotency_key = $1"
                                + " and recovery_point = 'PAYMENT_CREATED'", key) == 1);
                second.lock("select * from idempotency_keys where idempotency_key = ? for update", key);
            } finally {
                gate.tryEmitEmpty();
            }
            // The charge is made; the transaction that records PROCESSING and the response now waits on the key row.
            killTheBackendWaitingOn(second, "update idempotency_keys");
            assertThat(request.get()).isBetween(500, 599);
        }
        assertThat(count("select count(*) from payments where booking_id = $1 and status = 'PENDING'", booking))
                .isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions t join payments p on p.id = t.payment_id"
                + " where p.booking_id = $1 and t.event = 'SUBMIT'", booking)).isZero();

        postPayment(DEMO_KEY, key, body).exchange()
                .expectStatus().isCreated()
                .expectHeader().doesNotExist("Idempotent-Replayed")
                .expectBody().jsonPath("$.status").isEqualTo("PROCESSING");

        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
        assertThat(count("select count(*) from sandbox_charges c join payments p on p.id = c.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions t join payments p on p.id = t.payment_id"
                + " where p.booking_id = $1 and t.event = 'SUBMIT'", booking)).isEqualTo(1);
    }
}
