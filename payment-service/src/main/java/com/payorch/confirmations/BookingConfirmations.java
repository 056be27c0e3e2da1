package com.payorch.confirmations;

import java.time.Duration;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The `booking_confirmations` table (or, for cancellation e-mails, `booking_cancellation_emails`, the same shape):
 * one row per merchant's booking, claimed before sending, marked once sent.
 */
@Component
class BookingConfirmations {

    enum Claim { CLAIMED, ALREADY_SENT, HELD_BY_ANOTHER_DELIVERY }

    static final String CANCELLATIONS = "booking_cancellation_emails";

    private final DatabaseClient db;
    private final String table;

    @org.springframework.beans.factory.annotation.Autowired
    BookingConfirmations(DatabaseClient db) {
        this(db, "booking_confirmations");
    }

    /** @param table `booking_confirmations` or {@link #CANCELLATIONS} (a constant, never input) */
    BookingConfirmations(DatabaseClient db, String table) {
        this.db = db;
        this.table = table;
    }

    /**
     * Claims the booking's confirmation for this delivery (`token`) unless it was sent or another delivery holds a
     * live claim. The insert and the takeover of an expired claim are one statement, so racing deliveries cannot
     * both win.
     */
    Mono<Claim> claim(ConfirmationMessage message, UUID token, Duration timeout) {
        return db.sql(sql("""
                        insert into TABLE (merchant_id, booking_id, payment_id, event_id, message_id,
                                                           recipient, claimed_by, claimed_until)
                        values (:merchant, :booking, :payment, :event, :messageId, :recipient, :token,
                                now() + make_interval(secs => :timeoutSeconds))
                        on conflict (merchant_id, booking_id) do update
                        set payment_id = excluded.payment_id, event_id = excluded.event_id,
                            message_id = excluded.message_id, recipient = excluded.recipient,
                            claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until
                        where TABLE.sent_at is null
                          and (TABLE.claimed_until is null or TABLE.claimed_until <= now())
                        returning claimed_by"""))
                .bind("merchant", message.merchantId())
                .bind("booking", message.bookingId())
                .bind("payment", message.paymentId())
                .bind("event", message.eventId())
                .bind("messageId", message.messageId())
                .bind("recipient", message.recipient())
                .bind("token", token)
                .bind("timeoutSeconds", timeout.toMillis() / 1000.0)
                .map(row -> Claim.CLAIMED)
                .one()
                .switchIfEmpty(Mono.defer(() -> wasSent(message.merchantId(), message.bookingId())
                        .map(sent -> sent ? Claim.ALREADY_SENT : Claim.HELD_BY_ANOTHER_DELIVERY)));
    }

    /** True when this delivery still held the claim; call inside the transaction that writes the event. */
    Mono<Boolean> markSent(String merchantId, String bookingId, UUID token) {
        return db.sql(sql("""
                        update TABLE set sent_at = now(), claimed_by = null, claimed_until = null
                        where merchant_id = :merchant and booking_id = :booking and claimed_by = :token
                          and sent_at is null"""))
                .bind("merchant", merchantId)
                .bind("booking", bookingId)
                .bind("token", token)
                .fetch().rowsUpdated()
                .map(rows -> rows == 1);
    }

    /** After a failed send: lets the next delivery try at once instead of waiting for the claim to expire. */
    Mono<Void> release(String merchantId, String bookingId, UUID token) {
        return db.sql(sql("""
                        update TABLE set claimed_by = null, claimed_until = null
                        where merchant_id = :merchant and booking_id = :booking and claimed_by = :token
                          and sent_at is null"""))
                .bind("merchant", merchantId)
                .bind("booking", bookingId)
                .bind("token", token)
                .then();
    }

    private Mono<Boolean> wasSent(String merchantId, String bookingId) {
        return db.sql(sql("select sent_at is not null as sent from TABLE"
                        + " where merchant_id = :merchant and booking_id = :booking"))
                .bind("merchant", merchantId)
                .bind("booking", bookingId)
                .map(row -> row.get("sent", Boolean.class))
                .one()
                .defaultIfEmpty(false);
    }

    private String sql(String template) {
        return template.replace("TABLE", table);
    }
}
