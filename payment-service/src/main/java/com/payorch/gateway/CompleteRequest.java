package com.payorch.gateway;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The customer came back from the action the connector asked for (3-D Secure, a redirect): the connector is asked for
 * the attempt's outcome, with what the customer's browser brought back when the connector needs it (Adyen's
 * {@code redirectResult} for {@code /payments/details}); without it, the connector looks the attempt up.
 */
public record CompleteRequest(ChargeRequest charge, @Nullable String redirectResult) {

    public CompleteRequest {
        Objects.requireNonNull(charge, "charge");
    }

    /** The connector's idempotency key of the completion: its own, never the attempt's. */
    public String idempotencyKey() {
        return charge.idempotencyKey() + "-complete";
    }
}
