package com.payorch.connectors.braintree;

import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The bounded threads Braintree's blocking SDK runs on (`payments.connectors.braintree.threads`, queue 10,000),
 * shared with no other connector; a type of its own, so it is never confused with another connector's scheduler.
 */
public record BraintreeThreads(Scheduler scheduler) implements AutoCloseable {

    static BraintreeThreads of(BraintreeSettings settings) {
        return new BraintreeThreads(Schedulers.newBoundedElastic(settings.getThreads(), 10_000, "braintree-io"));
    }

    @Override
    public void close() {
        scheduler.dispose();
    }
}
