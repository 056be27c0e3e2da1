package com.payorch.payments;

import com.payorch.gateway.CaptureMethod;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a payment holds and took: its capture method and, for a manual-capture payment (a hold), the authorisation,
 * the capture sent and the cancel requested. Kept on the payment row and changed only with its transitions (and a
 * cancel request), so one versioned write decides a capture racing a cancel.
 *
 * @param amountCaptured    the money taken: the whole amount of an automatic payment once COMPLETED, the captured
 *                          amount of a hold; refunds are limited by it
 * @param captureAmount     the amount of the capture sent and not settled (CAPTURING), else null
 * @param captures          how many captures were sent: capture n carries its own connector key
 * @param expiresAt         when the authorisation lapses (authorised at + validity)
 * @param cancelRequestedAt when a cancel won (the hold is being released): no capture may follow
 */
public record Hold(CaptureMethod captureMethod, long amountCaptured, @Nullable Long captureAmount, int captures,
                   @Nullable Instant authorizedAt, @Nullable Instant expiresAt, @Nullable Instant cancelRequestedAt,
                   @Nullable String cancelReason) {

    /** An automatic-capture payment before it took anything. */
    public static final Hold AUTOMATIC = new Hold(CaptureMethod.AUTOMATIC, 0, null, 0, null, null, null, null);

    /** A manual-capture payment before it was authorised. */
    public static final Hold MANUAL = new Hold(CaptureMethod.MANUAL, 0, null, 0, null, null, null, null);

    public Hold {
        Objects.requireNonNull(captureMethod, "captureMethod");
    }

    public static Hold of(CaptureMethod method) {
        return method == CaptureMethod.MANUAL ? MANUAL : AUTOMATIC;
    }

    public boolean manual() {
        return captureMethod == CaptureMethod.MANUAL;
    }

    public boolean cancelRequested() {
        return cancelRequestedAt != null;
    }

    /** The capture of {@code amount} about to be sent: the next capture number. */
    Hold capturing(long amount) {
        return new Hold(captureMethod, amountCaptured, amount, captures + 1, authorizedAt, expiresAt,
                cancelRequestedAt, cancelReason);
    }

    /** A cancel that won: recorded before the connector is asked. */
    Hold cancelRequested(Instant at, @Nullable String reason) {
        return new Hold(captureMethod, amountCaptured, captureAmount, captures, authorizedAt, expiresAt, at, reason);
    }

    /**
     * The hold after {@code event} moved its payment to {@code target} at {@code now}: authorised (with its expiry),
     * captured (the capture's amount, or the whole amount when the connector captured without being asked), a
     * capture refused (nothing in flight any more).
     */
    Hold after(PaymentEvent event, PaymentStatus target, Instant now, long paymentAmount, Duration validity) {
        return switch (target) {
            case AUTHORIZED -> event == PaymentEvent.AUTHORIZE
                    ? new Hold(captureMethod, amountCaptured, null, captures, now, now.plus(validity),
                            cancelRequestedAt, cancelReason)
                    : new Hold(captureMethod, amountCaptured, null, captures, authorizedAt, expiresAt,
                            cancelRequestedAt, cancelReason);
            case COMPLETED -> new Hold(captureMethod, captureAmount != null ? captureAmount : paymentAmount, null,
                    captures, authorizedAt, expiresAt, cancelRequestedAt, cancelReason);
            // A retried payment starts its hold again (its earlier attempt authorised nothing).
            case PENDING -> event == PaymentEvent.RETRY ? of(captureMethod) : this;
            default -> this;
        };
    }
}
