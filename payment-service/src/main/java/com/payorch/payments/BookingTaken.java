package com.payorch.payments;

import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.Refusal;

/**
 * The booking already has a live payment: paid (COMPLETED, or a hold: AUTHORIZED/CAPTURING, which guarantees the
 * booking) or in progress (PENDING/PROCESSING).
 */
public class BookingTaken extends Refusal {

    private final PaymentStatus liveStatus;

    public BookingTaken(PaymentStatus liveStatus) {
        super(paid(liveStatus) ? "booking_already_paid" : "booking_payment_in_progress", detail(liveStatus));
        this.liveStatus = liveStatus;
    }

    private static boolean paid(PaymentStatus status) {
        return status == PaymentStatus.COMPLETED || PaymentStatus.HELD.contains(status);
    }

    private static String detail(PaymentStatus status) {
        if (status == PaymentStatus.COMPLETED) {
            return "The booking is already paid.";
        }
        if (PaymentStatus.HELD.contains(status)) {
            return "The booking is already paid by a hold (its payment is " + status + "); capture or cancel it.";
        }
        return "The booking has a payment in status " + status + "; wait for it to complete or fail.";
    }

    public boolean alreadyPaid() {
        return paid(liveStatus);
    }
}
