package com.payorch.database.failover;

import io.r2dbc.spi.Readable;
import io.r2dbc.spi.Result;
import io.r2dbc.spi.Row;
import io.r2dbc.spi.RowMetadata;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

/**
 * Hands the result's errors to the retirement: a server's refusal reaches the client when the result is consumed, as
 * an error signal, or as a message segment to {@link #flatMap}.
 */
final class WatchedResult implements Result {

    private final Result delegate;
    private final ConnectionRetirement retirement;

    WatchedResult(Result delegate, ConnectionRetirement retirement) {
        this.delegate = delegate;
        this.retirement = retirement;
    }

    @Override
    public Publisher<Long> getRowsUpdated() {
        return Flux.from(delegate.getRowsUpdated()).doOnError(retirement::noticeError);
    }

    @Override
    public <T> Publisher<T> map(BiFunction<Row, RowMetadata, ? extends T> mappingFunction) {
        return Flux.<T>from(delegate.map(mappingFunction)).doOnError(retirement::noticeError);
    }

    @Override
    public <T> Publisher<T> map(Function<? super Readable, ? extends T> mappingFunction) {
        return Flux.<T>from(delegate.map(mappingFunction)).doOnError(retirement::noticeError);
    }

    @Override
    public Result filter(Predicate<Segment> filter) {
        return new WatchedResult(delegate.filter(filter), retirement);
    }

    @Override
    public <T> Publisher<T> flatMap(Function<Segment, ? extends Publisher<? extends T>> mappingFunction) {
        return Flux.<T>from(delegate.<T>flatMap(segment -> {
            retirement.noticeSegment(segment);
            return mappingFunction.apply(segment);
        })).doOnError(retirement::noticeError);
    }
}
