package com.payorch.gateway;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a connector's notification says about a dispute (a chargeback) of one of its charges, in the port's words.
 * The notification carrying it names the charge (its reference, and the attempt where the connector names one), so
 * a dispute is bound to the payment's attempt by the same rules as every outcome.
 *
 * @param connectorReference the dispute's id at the connector (Stripe `dp_…`, Adyen's chargeback pspReference, the
 *                           sandbox's `ch_…-dispute`), the same in every report about it
 * @param amount             in ISO 4217 minor units (the connector converts its own units back)
 * @param evidenceDueBy      when the merchant's evidence is due, when the connector says
 */
public record DisputeNotice(String connectorReference, Kind kind, long amount, String currency,
                            @Nullable String reason, @Nullable Instant evidenceDueBy, Instant occurredAt) {

    /** Opened (or an inquiry), changed (reason, evidence due), or closed won (reversed) or lost. */
    public enum Kind {
        OPENED,
        UPDATED,
        WON,
        LOST
    }

    public DisputeNotice {
        Objects.requireNonNull(connectorReference, "connectorReference");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(occurredAt, "occurredAt");
    }
}
