package com.payorch.gateway;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The release of a hold (or the cancel of a manual attempt not yet authorised): the attempt's authorisation is
 * cancelled at the connector, by its recorded reference or, when none is known, by the service's own reference.
 */
public record CancelRequest(ChargeRequest charge, @Nullable String reason) {

    public CancelRequest {
        Objects.requireNonNull(charge, "charge");
    }

    /** The connector's idempotency key of the cancel: its own, never the attempt's. */
    public String idempotencyKey() {
        return charge.idempotencyKey() + "-cancel";
    }

    public @Nullable String reference() {
        return charge.reference();
    }
}
