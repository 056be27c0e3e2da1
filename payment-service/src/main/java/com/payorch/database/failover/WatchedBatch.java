package com.payorch.database.failover;

import io.r2dbc.spi.Batch;
import io.r2dbc.spi.Result;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

/** Hands the batch's errors, and its results' errors, to the retirement. */
final class WatchedBatch implements Batch {

    private final Batch delegate;
    private final ConnectionRetirement retirement;

    WatchedBatch(Batch delegate, ConnectionRetirement retirement) {
        this.delegate = delegate;
        this.retirement = retirement;
    }

    @Override
    public Batch add(String sql) {
        delegate.add(sql);
        return this;
    }

    @Override
    public Publisher<? extends Result> execute() {
        return Flux.from(delegate.execute())
                .map(result -> (Result) new WatchedResult(result, retirement))
                .doOnError(retirement::noticeError);
    }
}
