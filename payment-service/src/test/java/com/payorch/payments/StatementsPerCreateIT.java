package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.idempotency.IdempotentRequest;
import com.payorch.idempotency.RequestFingerprint;
import com.payorch.idempotency.StoredResponse;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.SandboxFaults;
import com.payorch.testsupport.StatementCounting;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import reactor.core.publisher.Sinks;

/**
 * The round trips of one `POST /v1/payments` (sandbox gateway), counted at the R2DBC driver under the request's own
 * Reactor context: a new key costs two statements of the service and the sandbox's one, with no BEGIN or COMMIT
 * (each statement is its own transaction); a replay costs two. A change that adds a round trip to a create fails
 * here; docs/performance.md explains the statements.
 */
@Import(StatementCounting.class)
class StatementsPerCreateIT extends ApiTest {

    private static final PaymentResponse RESPONSE = payment -> new StoredResponse(201, Map.of("ETag", "\""
            + payment.payment().version() + "\""), ("{\"id\":\"" + payment.payment().id() + "\",\"status\":\""
            + payment.payment().status() + "\"}").getBytes(StandardCharsets.UTF_8), false);

    @Autowired
    IdempotentPaymentFlow flow;

    @Autowired
    SandboxFaults faults;

    private IdempotentRequest request(String key, String booking) {
        return new IdempotentRequest("demo", key, "POST", "/v1/payments",
                RequestFingerprint.of("POST", "/v1/payments", booking.getBytes(StandardCharsets.UTF_8)));
    }

    private StoredResponse create(String key, String booking, StatementCounting.Log log) {
        return flow.create(request(key, booking),
                        new NewPayment(booking, 12000, "JPY", "pm_card_ok", null, null, Map.of()), RESPONSE)
                .contextWrite(log::into)
                .block(Duration.ofSeconds(20));
    }

    @Test
    void aCreateIsTwoStatementsOfItsOwnPlusTheSandboxChargeAndAReplayIsTwo() {
        String key = unique("key");
        String booking = unique("bk");

        StatementCounting.Log created = new StatementCounting.Log();
        StoredResponse response = create(key, booking, created);

        List<String> sent = created.sent();
        assertThat(sent).as("round trips of a create: %s", sent).hasSize(3);
        assertThat(sent).noneMatch(s -> s.equals("BEGIN") || s.equals("COMMIT"));
        assertThat(sent.get(0)).contains("insert into idempotency_keys").contains("insert into payments")
                .contains("insert into events");
        assertThat(sent.get(1)).contains("sandbox_charges");
        assertThat(sent.get(2)).contains("update idempotency_keys").contains("update payments")
                .contains("insert into events");
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("\"status\":\"PROCESSING\"");
        assertThat(count("select count(*) from payments where booking_id = $1 and status = 'PROCESSING'"
                + " and version = 2", booking)).isEqualTo(1);
        assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1"
                + " and recovery_point = 'FINISHED' and locked_by is null", key)).isEqualTo(1);
        assertThat(count("select count(*) from events e join payments p on p.id = e.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo(2);

        StatementCounting.Log replayed = new StatementCounting.Log();
        StoredResponse replay = create(key, booking, replayed);
        assertThat(replayed.sent()).as("round trips of a replay: %s", replayed.sent()).hasSize(2);
        assertThat(replay.replayed()).isTrue();
        assertThat(replay.body()).isEqualTo(response.body());
        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
    }

    @Test
    void whenThePaymentChangedDuringTheGatewayCallTheOutcomeIsDecidedAgainOnTheRowAsItIsNow() throws Exception {
        String key = unique("key");
        String booking = unique("bk");
        StatementCounting.Log log = new StatementCounting.Log();
        Sinks.Empty<Void> gate = faults.holdSubmits();
        CompletableFuture<StoredResponse> pending;
        try {
            pending = flow.create(request(key, booking),
                            new NewPayment(booking, 12000, "JPY", "pm_card_ok", null, null, Map.of()), RESPONSE)
                    .contextWrite(log::into).toFuture();
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> count(
                    "select count(*) from idempotency_keys where idempotency_key = $1"
                            + " and recovery_point = 'PAYMENT_CREATED'", key) == 1);
            // Someone else recorded a reference for the attempt meanwhile: the single statement must not apply.
            db.sql("update payment_attempts set reference = 'ch_seen_elsewhere' where payment_id ="
                    + " (select id from payments where booking_id = :booking)").bind("booking", booking)
                    .then().block(Duration.ofSeconds(10));
        } finally {
            gate.tryEmitEmpty();
        }
        StoredResponse response = pending.get(20, TimeUnit.SECONDS);

        assertThat(log.sent()).as("the single statement, then the general path: %s", log.sent())
                .contains("BEGIN", "COMMIT");
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("\"status\":\"PROCESSING\"");
        assertThat(count("select count(*) from payment_transitions t join payments p on p.id = t.payment_id"
                + " where p.booking_id = $1 and t.event = 'SUBMIT'", booking)).isEqualTo(1);
        assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1"
                + " and recovery_point = 'FINISHED'", key)).isEqualTo(1);
    }
}
