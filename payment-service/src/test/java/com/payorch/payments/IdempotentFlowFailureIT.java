package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.idempotency.IdempotentRequest;
import com.payorch.idempotency.RequestFingerprint;
import com.payorch.testsupport.ApiTest;
import com.payorch.support.UnstorableText;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import reactor.core.publisher.Mono;

/**
 * How a failed first step leaves its idempotency key: a failure the database reports for the request's own text is
 * a 400 that frees the key; any other failure (a 5xx) before anything was committed deletes the key row too, so
 * the same key serves a different, corrected request.
 */
class IdempotentFlowFailureIT extends ApiTest {

    /** The first step fails in both tests, so no response is ever rendered. */
    private static final PaymentResponse NO_RESPONSE = found -> {
        throw new AssertionError("no response expected");
    };

    @Autowired
    IdempotentPaymentFlow flow;

    private IdempotentRequest request(String key, String body) {
        return new IdempotentRequest("demo", key, "POST", "/v1/payments",
                RequestFingerprint.of("POST", "/v1/payments", body.getBytes(StandardCharsets.UTF_8)));
    }

    private long keyRows(String key) {
        return count("select count(*) from idempotency_keys where merchant_id = 'demo' and idempotency_key = $1", key);
    }

    @Test
    void textThePostgresCannotStoreIsABadRequestAndFreesTheKey() {
        String key = unique("key");
        Mono<PaymentWithHistory> storesUPlus0000 = db.sql("select $1::text").bind(0, "Room\u0000101")
                .map(row -> row.get(0, String.class)).one()
                .then(Mono.error(new AssertionError("PostgreSQL stored U+0000")));

        assertThatThrownBy(() -> flow.execute(request(key, "{\"a\":1}"), claim -> storesUPlus0000, NO_RESPONSE)
                .block(Duration.ofSeconds(10)))
                .isInstanceOf(UnstorableText.class);
        assertThat(keyRows(key)).isZero();
    }

    @Test
    void anUnexpectedFailureBeforeAnythingWasCommittedDeletesTheKeyRow() {
        String key = unique("key");
        assertThatThrownBy(() -> flow.execute(request(key, "{\"a\":1}"),
                claim -> Mono.error(new IllegalStateException("boom")), NO_RESPONSE).block(Duration.ofSeconds(10)))
                .isInstanceOf(IllegalStateException.class);
        assertThat(keyRows(key)).isZero();

        // The same key, another request: not 422 idempotency_key_reused, as nothing was stored under it.
        String booking = unique("bk");
        postPayment(DEMO_KEY, key, paymentBody(booking)).exchange().expectStatus().isCreated();
    }
}
