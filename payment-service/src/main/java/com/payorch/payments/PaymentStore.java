package com.payorch.payments;

import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** SQL for payments and their transitions. Every read is scoped to a merchant unless its name says otherwise. */
@Component
public class PaymentStore {

    private static final String COLUMNS = """
            id, merchant_id, booking_id, amount, currency, payment_method, customer_email, description, status,
            failure_reason, attempt, version, created_at, updated_at""";

    private final DatabaseClient db;

    public PaymentStore(DatabaseClient db) {
        this.db = db;
    }

    public Mono<Payment> find(String merchantId, String paymentId) {
        return db.sql("select " + COLUMNS + " from payments where id = :id and merchant_id = :merchant")
                .bind("id", paymentId)
                .bind("merchant", merchantId)
                .map(PaymentStore::payment)
                .one();
    }

    /** For callers that authenticate otherwise than by merchant, such as signed gateway webhooks. */
    public Mono<Payment> findAnyMerchant(String paymentId) {
        return db.sql("select " + COLUMNS + " from payments where id = :id")
                .bind("id", paymentId)
                .map(PaymentStore::payment)
                .one();
    }

    public Flux<Payment> findByBooking(String merchantId, String bookingId) {
        return db.sql("select " + COLUMNS + " from payments where merchant_id = :merchant and booking_id = :booking"
                        + " order by created_at desc, id desc")
                .bind("merchant", merchantId)
                .bind("booking", bookingId)
                .map(PaymentStore::payment)
                .all();
    }

    /**
     * Payments of any merchant left in `status` since before `quietFor` ago (database clock), oldest first, leaving
     * out those a recovery job of `claimKind` holds a lease on (so a payment that stays stuck does not crowd out
     * the others).
     */
    public Flux<Payment> findStuck(PaymentStatus status, java.time.Duration quietFor, String claimKind, int limit) {
        return db.sql("select " + COLUMNS + " from payments p where status = :status"
                        + " and updated_at < now() - make_interval(secs => :seconds)"
                        + " and not exists (select 1 from work_claims c where c.kind = :kind and c.item_id = p.id"
                        + " and c.claimed_until > now())"
                        + " order by updated_at limit :limit")
                .bind("status", status.name())
                .bind("kind", claimKind)
                .bind("seconds", quietFor.toMillis() / 1000.0)
                .bind("limit", limit)
                .map(PaymentStore::payment)
                .all();
    }

    /** The status of the booking's PENDING, PROCESSING or COMPLETED payment, if it has one. */
    public Mono<PaymentStatus> liveStatusOfBooking(String merchantId, String bookingId) {
        return db.sql("""
                        select status from payments
                        where merchant_id = :merchant and booking_id = :booking
                          and status in ('PENDING', 'PROCESSING', 'COMPLETED')
                        order by (status = 'COMPLETED') desc
                        limit 1""")
                .bind("merchant", merchantId)
                .bind("booking", bookingId)
                .map(row -> PaymentStatus.valueOf(row.get("status", String.class)))
                .one();
    }

    Mono<Void> insert(Payment payment) {
        return db.sql("insert into payments (" + COLUMNS + ") values (:id, :merchant, :booking, :amount, :currency,"
                        + " :method, :email, :description, :status, :failureReason, :attempt, :version, :createdAt, :updatedAt)")
                .bind("id", payment.id())
                .bind("merchant", payment.merchantId())
                .bind("booking", payment.bookingId())
                .bind("amount", payment.amount())
                .bind("currency", payment.currency())
                .bind("method", payment.paymentMethod())
                .bind("status", payment.status().name())
                .bind("failureReason", nullable(payment.failureReason()))
                .bind("attempt", payment.attempt())
                .bind("version", payment.version())
                .bind("createdAt", payment.createdAt())
                .bind("updatedAt", payment.updatedAt())
                .bind("email", nullable(payment.customerEmail()))
                .bind("description", nullable(payment.description()))
                .then();
    }

    /** Writes `changed` only if the row still has the version it was read at; a lost race is an error, never a silent overwrite. */
    Mono<Void> updateIfVersion(Payment changed, long expectedVersion) {
        return db.sql("""
                        update payments
                        set status = :status, failure_reason = :failureReason, attempt = :attempt, version = :version,
                            updated_at = :updatedAt
                        where id = :id and version = :expectedVersion""")
                .bind("status", changed.status().name())
                .bind("failureReason", nullable(changed.failureReason()))
                .bind("attempt", changed.attempt())
                .bind("version", changed.version())
                .bind("updatedAt", changed.updatedAt())
                .bind("id", changed.id())
                .bind("expectedVersion", expectedVersion)
                .fetch().rowsUpdated()
                .flatMap(rows -> rows == 1 ? Mono.<Void>empty() : Mono.error(new OptimisticLockingFailureException(
                        "payment " + changed.id() + " is no longer at version " + expectedVersion)));
    }

    Mono<Void> insertTransition(String paymentId, PaymentTransition transition) {
        return db.sql("""
                        insert into payment_transitions (payment_id, from_status, to_status, event, source, source_id, at)
                        values (:payment, :from, :to, :event, :source, :sourceId, :at)""")
                .bind("payment", paymentId)
                .bind("from", nullable(transition.from() == null ? null : transition.from().name()))
                .bind("to", transition.to().name())
                .bind("event", transition.event().name())
                .bind("source", transition.source().value())
                .bind("sourceId", nullable(transition.sourceId()))
                .bind("at", transition.at())
                .then();
    }

    /** The histories of several payments in one query, each oldest first. */
    public Mono<Map<String, List<PaymentTransition>>> historiesOf(Collection<String> paymentIds) {
        if (paymentIds.isEmpty()) {
            return Mono.just(Map.of());
        }
        return db.sql("""
                        select payment_id, from_status, to_status, event, source, source_id, at
                        from payment_transitions where payment_id = any(:ids) order by id""")
                .bind("ids", paymentIds.toArray(String[]::new))
                .map(row -> Map.entry(row.get("payment_id", String.class), transition(row)))
                .all()
                .collect(Collectors.groupingBy(Map.Entry::getKey,
                        Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
    }

    private static PaymentTransition transition(Readable row) {
        String from = row.get("from_status", String.class);
        return new PaymentTransition(from == null ? null : PaymentStatus.valueOf(from),
                PaymentStatus.valueOf(row.get("to_status", String.class)),
                PaymentEvent.valueOf(row.get("event", String.class)),
                TransitionSource.fromValue(row.get("source", String.class)),
                row.get("source_id", String.class),
                row.get("at", Instant.class));
    }

    private static Payment payment(Readable row) {
        return new Payment(row.get("id", String.class), row.get("merchant_id", String.class),
                row.get("booking_id", String.class), row.get("amount", Long.class), row.get("currency", String.class),
                row.get("payment_method", String.class), row.get("customer_email", String.class),
                row.get("description", String.class), PaymentStatus.valueOf(row.get("status", String.class)),
                row.get("failure_reason", String.class), row.get("attempt", Integer.class), row.get("version", Long.class),
                row.get("created_at", Instant.class), row.get("updated_at", Instant.class));
    }

    private static Parameter nullable(String value) {
        return Parameter.fromOrEmpty(value, String.class);
    }
}
