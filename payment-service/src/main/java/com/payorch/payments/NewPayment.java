package com.payorch.payments;

/** A validated request for a new payment. */
public record NewPayment(String bookingId, long amount, String currency, String paymentMethod, String customerEmail,
                         String description) {
}
