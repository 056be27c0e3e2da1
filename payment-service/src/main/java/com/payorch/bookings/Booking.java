package com.payorch.bookings;

import java.time.Instant;

/**
 * A merchant's booking: it exists from the first payment that names it, is activated once, by a payment, and is
 * cancelled once, when that payment is refunded in full.
 */
public record Booking(String merchantId, String id, BookingStatus status, String paymentId, Instant activatedAt,
                      long version, Instant cancelledAt) {
}
