package com.payorch.gateway;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The capture of a hold: {@code amount} (ISO 4217 minor units, at most the authorised amount; less is a partial
 * capture and the rest is released) of the attempt's authorisation.
 *
 * @param charge    the authorised attempt (its recorded reference included, when the connector gave one)
 * @param number    the payment's capture number (1, then one more after a capture the connector refused): a capture
 *                  resent after a lost answer has the same number, so the same connector idempotency key
 */
public record CaptureRequest(ChargeRequest charge, long amount, int number) {

    public CaptureRequest {
        Objects.requireNonNull(charge, "charge");
        if (amount < 1 || amount > charge.amount()) {
            throw new IllegalArgumentException("a capture of " + amount + " of " + charge.amount());
        }
        if (number < 1) {
            throw new IllegalArgumentException("capture number " + number);
        }
    }

    /** The connector's idempotency key of this capture: its own, never the attempt's. */
    public String idempotencyKey() {
        return charge.idempotencyKey() + "-capture-" + number;
    }

    /** The connector's id of the authorised charge (PaymentIntent, pspReference, transaction), when recorded. */
    public @Nullable String reference() {
        return charge.reference();
    }

    public boolean partial() {
        return amount < charge.amount();
    }
}
