package com.payorch.payments;

import com.payorch.statemachine.PaymentStatus;
import com.payorch.web.ApiProblem;
import com.payorch.web.ProblemCode;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * While a booking has a PENDING, PROCESSING or COMPLETED payment, no other payment for it may become live.
 * The code checks first for a precise answer; the partial unique index `payments_one_live_payment_per_booking`
 * decides the races the check cannot see.
 */
@Component
public class BookingGuard {

    static final String INDEX = "payments_one_live_payment_per_booking";

    /** A write lost the race on the index; thrown inside the transaction, answered after its rollback. */
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

    public BookingGuard(PaymentStore payments) {
        this.payments = payments;
    }

    public Mono<Void> check(String merchantId, String bookingId) {
        return payments.liveStatusOfBooking(merchantId, bookingId)
                .flatMap(status -> Mono.error(refusal(status)));
    }

    /** Runs a write that may make a payment live, turning the index's refusal into {@link RaceLost}. */
    <T> Mono<T> guarded(Mono<T> write, String merchantId, String bookingId) {
        return write.onErrorMap(
                e -> e instanceof DuplicateKeyException && String.valueOf(e.getMessage()).contains(INDEX),
                e -> new RaceLost(merchantId, bookingId));
    }

    /** After the losing transaction rolled back: the same answer the check would have given. */
    <T> Mono<T> refuse(RaceLost race) {
        return payments.liveStatusOfBooking(race.merchantId, race.bookingId)
                .defaultIfEmpty(PaymentStatus.PENDING)
                .flatMap(status -> Mono.error(refusal(status)));
    }

    private static ApiProblem refusal(PaymentStatus liveStatus) {
        return liveStatus == PaymentStatus.COMPLETED
                ? new ApiProblem(ProblemCode.BOOKING_ALREADY_PAID, "The booking is already paid.")
                : new ApiProblem(ProblemCode.BOOKING_PAYMENT_IN_PROGRESS,
                "The booking has a payment in status " + liveStatus + "; wait for it to complete or fail.");
    }
}
