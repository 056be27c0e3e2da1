package com.payorch.payments;

import java.util.Map;

/** A validated request for a new payment; `metadata` is empty when none was given. */
public record NewPayment(String bookingId, long amount, String currency, String paymentMethod, String customerEmail,
                         String description, Map<String, String> metadata) {

    public NewPayment {
        metadata = Map.copyOf(metadata);
    }
}
