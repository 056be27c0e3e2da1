package com.payorch.payments;

import com.payorch.support.Refusal;

/** The booking was cancelled (its payment refunded in full): it takes no new payment. */
public class BookingCancelled extends Refusal {

    public BookingCancelled(String bookingId) {
        super("booking_cancelled", "Booking " + bookingId + " is cancelled; it takes no new payment.");
    }
}
