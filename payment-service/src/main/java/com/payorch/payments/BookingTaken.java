package com.payorch.payments;

import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.Refusal;

/** The booking already has a live payment: paid (COMPLETED) or in progress (PENDING/PROCESSING). */
public class BookingTaken extends Refusal {

    private final PaymentStatus liveStatus;

    public BookingTaken(PaymentStatus liveStatus) {
        super(liveStatus == PaymentStatus.COMPLETED ? "booking_already_paid" : "booking_payment_in_progress",
                liveStatus == PaymentStatus.COMPLETED ? "The booking is already paid."
                        : "The booking has a payment in status " + liveStatus + "; wait for it to complete or fail.");
        this.liveStatus = liveStatus;
    }

    public boolean alreadyPaid() {
        return liveStatus == PaymentStatus.COMPLETED;
    }
}
