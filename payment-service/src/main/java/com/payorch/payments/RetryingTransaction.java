package com.payorch.payments;

import java.time.Duration;
import java.util.function.Supplier;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Runs work in a transaction and, when it lost an optimistic-locking race, runs it again from the start against
 * the fresh rows (a few times, with a short backoff). The work must read what it decides on inside the supplier.
 */
@Component
public class RetryingTransaction {

    private static final Retry ON_CONCURRENT_CHANGE = Retry.backoff(5, Duration.ofMillis(5))
            .filter(OptimisticLockingFailureException.class::isInstance)
            .onRetryExhaustedThrow((spec, signal) -> signal.failure());

    private final TransactionalOperator transaction;

    public RetryingTransaction(TransactionalOperator transaction) {
        this.transaction = transaction;
    }

    public <T> Mono<T> run(Supplier<Mono<T>> work) {
        return transaction.transactional(Mono.defer(work)).retryWhen(ON_CONCURRENT_CHANGE);
    }
}
