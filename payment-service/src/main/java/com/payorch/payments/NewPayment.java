package com.payorch.payments;

import com.payorch.gateway.CaptureMethod;
import java.util.Map;

/**
 * A validated request for a new payment; `metadata` is empty when none was given; `returnUrl` (validated) is null when
 * none was given.
 */
public record NewPayment(String bookingId, long amount, String currency, String paymentMethod, String customerEmail,
                         String description, Map<String, String> metadata, CaptureMethod captureMethod,
                         @org.jspecify.annotations.Nullable String returnUrl) {

    public NewPayment {
        metadata = Map.copyOf(metadata);
        java.util.Objects.requireNonNull(captureMethod, "captureMethod");
    }

    public NewPayment(String bookingId, long amount, String currency, String paymentMethod, String customerEmail,
                      String description, Map<String, String> metadata, CaptureMethod captureMethod) {
        this(bookingId, amount, currency, paymentMethod, customerEmail, description, metadata, captureMethod, null);
    }

    /** A payment charged at once (automatic capture). */
    public NewPayment(String bookingId, long amount, String currency, String paymentMethod, String customerEmail,
                      String description, Map<String, String> metadata) {
        this(bookingId, amount, currency, paymentMethod, customerEmail, description, metadata,
                CaptureMethod.AUTOMATIC);
    }
}
