package com.payorch.payments.internal;

import com.payorch.payments.GatewayOutcomes;
import com.payorch.statemachine.AttemptStatus;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.SqlLiterals;
import java.util.Map;
import java.util.Optional;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * SQL for a payment's attempts apart from the changes of the payment: the connector's references of their charges,
 * the failover bookkeeping of submissions in doubt, and the marking of an orphaned charge.
 */
@Component
public class AttemptStore {

    private static final String PENDING = SqlLiterals.of(AttemptStatus.PENDING);
    private static final String SUCCEEDED = SqlLiterals.of(AttemptStatus.SUCCEEDED);
    private static final String PAYMENT_PENDING = SqlLiterals.of(PaymentStatus.PENDING);
    /** An attempt whose connector has not settled it (waiting for the customer included). */
    private static final String UNSETTLED = SqlLiterals.in(java.util.EnumSet.of(
            com.payorch.payments.AttemptStatus.PENDING, com.payorch.payments.AttemptStatus.PROCESSING,
            com.payorch.payments.AttemptStatus.REQUIRES_ACTION));
    /** A payment in one of these took no money by its current attempt: a success reported for it is orphaned. */
    private static final String ENDED_WITHOUT_MONEY = SqlLiterals.in(GatewayOutcomes.ENDED_WITHOUT_MONEY);

    private final DatabaseClient db;

    public AttemptStore(DatabaseClient db) {
        this.db = db;
    }

    /** The attempt of {@code connector} whose charge is {@code reference}: (payment id, attempt number). */
    public Mono<Map.Entry<String, Integer>> findAttemptByReference(String connector, String reference) {
        return db.sql("select payment_id, number from payment_attempts where connector = :connector"
                        + " and reference = :reference")
                .bind("connector", connector)
                .bind("reference", reference)
                .map(row -> Map.entry(row.get("payment_id", String.class), row.get("number", Integer.class)))
                .one();
    }

    /** The reference recorded on the payment's attempt {@code number} at {@code connector}, if it has one. */
    public Mono<AttemptAtConnector> attemptAt(String paymentId, int number, String connector) {
        return db.sql("select reference from payment_attempts where payment_id = :payment and number = :number"
                        + " and connector = :connector")
                .bind("payment", paymentId)
                .bind("number", number)
                .bind("connector", connector)
                .map(row -> new AttemptAtConnector(number, Optional.ofNullable(row.get("reference", String.class))))
                .one();
    }

    /** An attempt of a payment at a connector, and the connector's reference of its charge once recorded. */
    public record AttemptAtConnector(int number, Optional<String> reference) {
    }

    /** The connector's reference recorded on the payment's attempt, if any. */
    public Mono<String> referenceOf(String paymentId, int number) {
        return db.sql("select reference from payment_attempts where payment_id = :payment and number = :number"
                        + " and reference is not null")
                .bind("payment", paymentId)
                .bind("number", number)
                .map(row -> row.get("reference", String.class))
                .one();
    }

    /**
     * Records why an unsettled attempt needs a person (recovery found no evidence to settle it): the reason is
     * replaced, {@code attention_since} is kept from the first time. The settling write clears both.
     */
    public Mono<Void> needsAttention(String paymentId, int attempt, String reason) {
        return db.sql("""
                        update payment_attempts
                        set attention_reason = :reason, attention_since = coalesce(attention_since, now())
                        where payment_id = :payment and number = :attempt and status in %s""".formatted(UNSETTLED))
                .bind("reason", reason)
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .then();
    }

    /**
     * Records why a hold needs a person on the payment's current attempt, only while the payment is still at
     * {@code version} (a capture or cancel that settled meanwhile is not marked); the next transition clears it.
     */
    public Mono<Void> holdNeedsAttention(String paymentId, long version, String reason) {
        return db.sql("""
                        update payment_attempts a
                        set attention_reason = :reason, attention_since = coalesce(a.attention_since, now())
                        from payments p
                        where p.id = :payment and p.version = :version and a.payment_id = p.id
                          and a.number = p.attempt""")
                .bind("reason", reason)
                .bind("payment", paymentId)
                .bind("version", version)
                .then();
    }

    /** The unsettled attempt of the payment at {@code connector} whose attention reason is {@code reason}, if any. */
    public Mono<Integer> unsettledAttemptWithAttention(String paymentId, String connector, String reason) {
        return db.sql("""
                        select number from payment_attempts
                        where payment_id = :payment and connector = :connector and attention_reason = :reason
                          and status in %s
                        order by number desc limit 1""".formatted(UNSETTLED))
                .bind("payment", paymentId)
                .bind("connector", connector)
                .bind("reason", reason)
                .map(row -> row.get("number", Integer.class))
                .one();
    }

    /** Records the connector's reference of an attempt, if none is recorded yet. */
    public Mono<Void> recordReference(String paymentId, int attempt, String reference) {
        return db.sql("update payment_attempts set reference = :reference where payment_id = :payment"
                        + " and number = :attempt and reference is null")
                .bind("reference", reference)
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .then();
    }

    /**
     * Before a submission that may fail over: counts it as in doubt at {@code connector}. False when the attempt is no
     * longer PENDING at that connector (it moved on, or an outcome came): the caller must not send.
     */
    public Mono<Boolean> beginSend(String paymentId, int attempt, String connector) {
        return db.sql("""
                        update payment_attempts set sends_in_doubt = sends_in_doubt + 1
                        where payment_id = :payment and number = :attempt and connector = :connector
                          and status = %s""".formatted(PENDING))
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .bind("connector", connector)
                .fetch()
                .rowsUpdated()
                .map(rows -> rows == 1);
    }

    /** The submission ended with a definite "not charged": no longer in doubt. Answers the doubts left. */
    public Mono<Integer> endSendNotCharged(String paymentId, int attempt, String connector) {
        return db.sql("""
                        update payment_attempts set sends_in_doubt = greatest(sends_in_doubt - 1, 0)
                        where payment_id = :payment and number = :attempt and connector = :connector
                        returning sends_in_doubt""")
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .bind("connector", connector)
                .map(row -> row.get("sends_in_doubt", Integer.class))
                .one()
                .defaultIfEmpty(-1);
    }

    /**
     * Moves a PENDING attempt from {@code from} to {@code to} (the payment's and the attempt's connector, one
     * statement), only while no submission to {@code from} is in doubt. True when it moved. Not a state change: the
     * payment's status, version and history stay as they are.
     */
    public Mono<Boolean> moveToConnector(String paymentId, int attempt, String from, String to) {
        return db.sql("""
                        with moved as (
                            update payment_attempts set connector = :to, sends_in_doubt = 0, connector_since = now()
                            where payment_id = :payment and number = :attempt and connector = :from
                              and status = %s and sends_in_doubt = 0 and reference is null
                            returning payment_id)
                        update payments set connector = :to
                        where id in (select payment_id from moved) and attempt = :attempt and connector = :from
                          and status = %s""".formatted(PENDING, PAYMENT_PENDING))
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .bind("from", from)
                .bind("to", to)
                .fetch()
                .rowsUpdated()
                .map(rows -> rows == 1);
    }

    /**
     * Marks an attempt as having taken the money for nothing, once: a superseded attempt, or any attempt of a payment
     * that ended without money (FAILED). True only for the call that marked it, so the caller writes one
     * {@code charge.orphaned} event however often the outcome is reported. The current attempt of any other payment
     * (a COMPLETED one above all: its charge backs it) is never marked, whatever the caller believed.
     */
    public Mono<Boolean> markOrphaned(String paymentId, int attempt, String connector, String reference) {
        return db.sql("""
                        update payment_attempts a
                        set status = %s, reference = coalesce(a.reference, :reference), orphaned_at = now(),
                            attention_reason = null, attention_since = null
                        where a.payment_id = :payment and a.number = :attempt and a.orphaned_at is null
                          and not (a.connector = :connector and exists (
                                  select 1 from payments p where p.id = a.payment_id and p.attempt = a.number
                                      and p.status not in %s))""".formatted(SUCCEEDED, ENDED_WITHOUT_MONEY))
                .bind("reference", reference)
                .bind("connector", connector)
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .fetch()
                .rowsUpdated()
                .map(rows -> rows == 1);
    }
}
