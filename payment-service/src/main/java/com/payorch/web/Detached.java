package com.payorch.web;

import reactor.core.publisher.Mono;

/**
 * Runs work that must finish even when the client hangs up: a payment request or a webhook that has started
 * changing state completes and records its result, so the client's (or gateway's) retry finds it instead of
 * half-done work. The returned Mono can be cancelled; the work cannot.
 */
public final class Detached {

    private Detached() {
    }

    public static <T> Mono<T> run(Mono<T> work) {
        return Mono.fromFuture(work.toFuture(), true);
    }
}
