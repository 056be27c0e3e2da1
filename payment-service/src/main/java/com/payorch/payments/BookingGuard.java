package com.payorch.payments;

import com.payorch.bookings.BookingStatus;
import com.payorch.bookings.BookingStore;
import com.payorch.payments.internal.PaymentStore;
import com.payorch.statemachine.PaymentStatus;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * While a booking has a PENDING, PROCESSING, REQUIRES_ACTION, AUTHORIZED, CAPTURING or COMPLETED payment (or a released hold that
 * cancelled it), no other payment for it may become live. The
 * partial unique index `payments_one_live_payment_per_booking` decides, under any concurrency; the refused write's
 * transaction rolls back and only then is the booking's live payment read, to answer precisely. (An earlier
 * version also checked before writing; that cost every create a round trip and decided nothing the index does not.)
 */
@Component
class BookingGuard {

    static final String INDEX = "payments_one_live_payment_per_booking";

    /** The index refused a write; thrown inside the transaction, answered after its rollback. */
    static final class RaceLost extends RuntimeException {
        final String merchantId;
        final String bookingId;

        RaceLost(String merchantId, String bookingId) {
            super("booking guard index refused a second live payment", null, false, false);
            this.merchantId = merchantId;
            this.bookingId = bookingId;
        }
    }

    private final PaymentStore payments;
    private final BookingStore bookings;

    public BookingGuard(PaymentStore payments, BookingStore bookings) {
        this.payments = payments;
        this.bookings = bookings;
    }

    /** Runs a write that may make a payment live, turning the index's refusal into {@link RaceLost}. */
    <T> Mono<T> guarded(Mono<T> write, String merchantId, String bookingId) {
        return write.onErrorMap(
                e -> e instanceof DuplicateKeyException && String.valueOf(e.getMessage()).contains(INDEX),
                e -> new RaceLost(merchantId, bookingId));
    }

    /** After the losing transaction rolled back: the same answer the check would have given. */
    <T> Mono<T> refuse(RaceLost race) {
        // A booking cancelled by a full refund keeps its COMPLETED payment, and one cancelled by the release of its
        // hold keeps that CANCELLED payment (the index counts both).
        return bookings.find(race.merchantId, race.bookingId)
                .filter(booking -> booking.status() == BookingStatus.CANCELLED)
                .flatMap(booking -> Mono.<T>error(new BookingCancelled(race.bookingId)))
                .switchIfEmpty(Mono.defer(() -> refuseLive(race)));
    }

    private <T> Mono<T> refuseLive(RaceLost race) {
        return payments.liveStatusOfBooking(race.merchantId, race.bookingId)
                .defaultIfEmpty(PaymentStatus.PENDING)
                .flatMap(status -> Mono.error(refusal(status)));
    }

    /** The refusal of a payment because the booking has a live payment in this status. */
    static BookingTaken refusal(PaymentStatus liveStatus) {
        return new BookingTaken(liveStatus);
    }
}
