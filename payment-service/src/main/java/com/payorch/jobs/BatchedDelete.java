package com.payorch.jobs;

import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/** A retention clean-up: one delete of at most `batchSize` rows after another, until one deletes fewer. */
public final class BatchedDelete {

    private static final Logger log = LoggerFactory.getLogger(BatchedDelete.class);

    private BatchedDelete() {
    }

    /** Emits how many rows went in all; never fails (a failure is logged, the next run tries again). */
    public static Mono<Long> untilShort(String what, int batchSize, Supplier<Mono<Long>> deleteBatch) {
        return Mono.defer(deleteBatch)
                .expand(deleted -> deleted >= batchSize ? Mono.defer(deleteBatch) : Mono.empty())
                .reduce(0L, Long::sum)
                .doOnNext(total -> {
                    if (total > 0) {
                        log.info("Deleted {} {}", total, what);
                    }
                })
                .onErrorResume(e -> {
                    log.warn("Deleting {} failed; the next run tries again: {}", what, e.toString());
                    return Mono.just(0L);
                });
    }
}
