package com.payorch.bookings;

import java.time.Instant;

/** A merchant's booking: it exists from the first payment that names it and is activated once, by a payment. */
public record Booking(String merchantId, String id, BookingStatus status, String paymentId, Instant activatedAt,
                      long version) {
}
