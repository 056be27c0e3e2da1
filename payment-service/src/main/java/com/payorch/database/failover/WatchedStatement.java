package com.payorch.database.failover;

import io.r2dbc.spi.Result;
import io.r2dbc.spi.Statement;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

/** Hands the statement's errors, and its results' errors, to the retirement. */
final class WatchedStatement implements Statement {

    private final Statement delegate;
    private final ConnectionRetirement retirement;

    WatchedStatement(Statement delegate, ConnectionRetirement retirement) {
        this.delegate = delegate;
        this.retirement = retirement;
    }

    @Override
    public Publisher<? extends Result> execute() {
        return Flux.from(delegate.execute())
                .map(result -> (Result) new WatchedResult(result, retirement))
                .doOnError(retirement::noticeError);
    }

    @Override
    public Statement add() {
        delegate.add();
        return this;
    }

    @Override
    public Statement bind(int index, Object value) {
        delegate.bind(index, value);
        return this;
    }

    @Override
    public Statement bind(String name, Object value) {
        delegate.bind(name, value);
        return this;
    }

    @Override
    public Statement bindNull(int index, Class<?> type) {
        delegate.bindNull(index, type);
        return this;
    }

    @Override
    public Statement bindNull(String name, Class<?> type) {
        delegate.bindNull(name, type);
        return this;
    }

    @Override
    public Statement returnGeneratedValues(String... columns) {
        delegate.returnGeneratedValues(columns);
        return this;
    }

    @Override
    public Statement fetchSize(int rows) {
        delegate.fetchSize(rows);
        return this;
    }
}
