package com.payorch.testsupport;

import com.payorch.events.Event;
import com.payorch.events.EventStore;
import com.payorch.events.EventType;
import com.payorch.support.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * API tests of what happens after an event is written: creates payments through the API and appends
 * booking.activated events directly (as the COMPLETED transition will), then reads the outbox bookkeeping.
 */
public abstract class OutboxApiTest extends ApiTest {

    /** An events row's delivery columns; `backingOff`: next_attempt_at is after now() by the database clock. */
    public record EventRow(int attempts, boolean dispatched, boolean claimed, boolean backingOff,
                           double nextAttemptSecondsAfterCreation, String lastError) {
    }

    @Autowired
    protected EventStore events;

    @Autowired
    protected TransactionalOperator transaction;

    /** Creates a payment (merchant demo) and returns its id; `customerEmail` may be null. */
    protected String createPaymentWithEmail(String bookingId, String customerEmail) {
        String body = """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok"%s,
                 "description": "Room 101, 2 nights"}""".formatted(bookingId,
                customerEmail == null ? "" : ", \"customerEmail\": \"" + customerEmail + "\"");
        return createPaymentFromBody(body);
    }

    protected Event appendBookingActivated(String paymentId, String bookingId) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return events.append("demo", EventType.BOOKING_ACTIVATED, paymentId, bookingId,
                        Map.of("bookingId", bookingId, "paymentId", paymentId, "activatedAt", Timestamps.format(now)), now)
                .as(transaction::transactional)
                .block(Duration.ofSeconds(10));
    }

    protected EventRow eventRow(String eventId) {
        return db.sql("""
                        select attempts, dispatched_at is not null as dispatched, claimed_by is not null as claimed,
                               coalesce(next_attempt_at > now(), false) as backing_off,
                               extract(epoch from next_attempt_at - created_at)::float8 as next_after_creation,
                               last_error
                        from events where id = $1""")
                .bind(0, eventId)
                .map(row -> new EventRow(row.get("attempts", Integer.class), row.get("dispatched", Boolean.class),
                        row.get("claimed", Boolean.class), row.get("backing_off", Boolean.class),
                        row.get("next_after_creation", Double.class) == null ? 0 : row.get("next_after_creation", Double.class),
                        row.get("last_error", String.class)))
                .one()
                .block(Duration.ofSeconds(10));
    }

    protected long confirmationsSent(String bookingId) {
        return count("select count(*) from events where merchant_id = 'demo' and booking_id = $1"
                + " and type = 'booking.confirmation_sent'", bookingId);
    }
}
