package com.payorch.bookings;

import com.payorch.support.SqlLiterals;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * SQL for bookings, always scoped to a merchant. A booking is created by its first payment, in the statement that
 * inserts the payment (PaymentStore.insertCreated).
 */
@Component
public class BookingStore {

    private static final String ACTIVE = SqlLiterals.of(com.payorch.statemachine.BookingStatus.ACTIVE);
    private static final String CANCELLED = SqlLiterals.of(com.payorch.statemachine.BookingStatus.CANCELLED);
    private static final String AWAITING_PAYMENT = SqlLiterals.of(com.payorch.statemachine.BookingStatus.AWAITING_PAYMENT);

    private final DatabaseClient db;

    public BookingStore(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Activates the booking for this payment unless it is already active: a conditional update, so two payments
     * racing to activate it cannot both succeed. Answers whether this call activated it. Runs in the caller's
     * transaction (the one that moves the payment to COMPLETED).
     */
    public Mono<Boolean> activate(String merchantId, String bookingId, String paymentId, Instant at) {
        return db.sql("""
                        update bookings
                        set status = %s, payment_id = :payment, activated_at = :at, updated_at = :at,
                            version = version + 1
                        where merchant_id = :merchant and id = :id and status = %s""".formatted(ACTIVE, AWAITING_PAYMENT))
                .bind("payment", paymentId)
                .bind("at", at)
                .bind("merchant", merchantId)
                .bind("id", bookingId)
                .fetch().rowsUpdated()
                .map(rows -> rows == 1);
    }

    /**
     * Cancels the booking this payment activated, unless it is cancelled already: a conditional update, so it happens
     * once. A booking another payment activated, or none did, is left alone. Answers whether this call cancelled it.
     * Runs in the caller's transaction (the one that moves the payment to CANCELLED).
     */
    public Mono<Boolean> cancel(String merchantId, String bookingId, String paymentId, Instant at) {
        return db.sql("""
                        update bookings
                        set status = %s, cancelled_at = :at, updated_at = :at, version = version + 1
                        where merchant_id = :merchant and id = :id and payment_id = :payment and status = %s"""
                        .formatted(CANCELLED, ACTIVE))
                .bind("payment", paymentId)
                .bind("at", at)
                .bind("merchant", merchantId)
                .bind("id", bookingId)
                .fetch().rowsUpdated()
                .map(rows -> rows == 1);
    }

    public Mono<Booking> find(String merchantId, String bookingId) {
        return db.sql("""
                        select merchant_id, id, status, payment_id, activated_at, version, cancelled_at
                        from bookings where merchant_id = :merchant and id = :id""")
                .bind("merchant", merchantId)
                .bind("id", bookingId)
                .map(BookingStore::booking)
                .one();
    }

    private static Booking booking(Readable row) {
        return new Booking(row.get("merchant_id", String.class), row.get("id", String.class),
                BookingStatus.valueOf(row.get("status", String.class)), row.get("payment_id", String.class),
                row.get("activated_at", Instant.class), row.get("version", Long.class),
                row.get("cancelled_at", Instant.class));
    }
}
