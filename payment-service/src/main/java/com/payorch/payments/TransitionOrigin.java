package com.payorch.payments;

/** The source of a transition and its id there: the idempotency key for the API, the webhook id for webhooks. */
public record TransitionOrigin(TransitionSource source, String sourceId) {

    public static TransitionOrigin api(String idempotencyKey) {
        return new TransitionOrigin(TransitionSource.API, idempotencyKey);
    }
}
