package com.payorch.idempotency;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/** Deletes idempotency keys past `payments.idempotency.retention`, in batches so no transaction grows large. */
@Component
public class ExpiredKeyCleanup {

    private static final Logger log = LoggerFactory.getLogger(ExpiredKeyCleanup.class);

    private final IdempotencyKeys keys;
    private final IdempotencyProperties properties;

    public ExpiredKeyCleanup(IdempotencyKeys keys, IdempotencyProperties properties) {
        this.keys = keys;
        this.properties = properties;
    }

    /** One clean-up, batch after batch until none is full; run every `cleanup-interval` by {@link IdempotencyJobs}. */
    public Mono<Long> deleteExpiredKeys() {
        int batch = properties.cleanupBatchSize();
        return keys.deleteExpired(batch)
                .expand(deleted -> deleted == batch ? keys.deleteExpired(batch) : Mono.empty())
                .reduce(0L, Long::sum)
                .doOnNext(total -> {
                    if (total > 0) {
                        log.info("Deleted {} expired idempotency keys", total);
                    }
                })
                .onErrorResume(e -> {
                    log.warn("Expired idempotency key cleanup failed; next run will try again: {}", e.toString());
                    return Mono.just(0L);
                });
    }
}
