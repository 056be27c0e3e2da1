package com.payorch.database.failover;

import io.r2dbc.spi.Batch;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionMetadata;
import io.r2dbc.spi.IsolationLevel;
import io.r2dbc.spi.Statement;
import io.r2dbc.spi.TransactionDefinition;
import io.r2dbc.spi.ValidationDepth;
import io.r2dbc.spi.Wrapped;
import java.time.Duration;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/** A driver connection whose statements' errors are watched; invalid once retired, whatever its socket says. */
final class WatchedConnection implements Connection, Wrapped<Connection> {

    private final Connection delegate;
    private final long number;
    private final ConnectionRetirement retirement;

    WatchedConnection(Connection delegate, long number, ConnectionRetirement retirement) {
        this.delegate = delegate;
        this.number = number;
        this.retirement = retirement;
    }

    @Override
    public Publisher<Boolean> validate(ValidationDepth depth) {
        return retirement.isRetired(number) ? Mono.just(false) : delegate.validate(depth);
    }

    @Override
    public Statement createStatement(String sql) {
        return new WatchedStatement(delegate.createStatement(sql), retirement);
    }

    @Override
    public Batch createBatch() {
        return new WatchedBatch(delegate.createBatch(), retirement);
    }

    @Override
    public Publisher<Void> beginTransaction() {
        return delegate.beginTransaction();
    }

    @Override
    public Publisher<Void> beginTransaction(TransactionDefinition definition) {
        return delegate.beginTransaction(definition);
    }

    @Override
    public Publisher<Void> commitTransaction() {
        return delegate.commitTransaction();
    }

    @Override
    public Publisher<Void> rollbackTransaction() {
        return delegate.rollbackTransaction();
    }

    @Override
    public Publisher<Void> createSavepoint(String name) {
        return delegate.createSavepoint(name);
    }

    @Override
    public Publisher<Void> releaseSavepoint(String name) {
        return delegate.releaseSavepoint(name);
    }

    @Override
    public Publisher<Void> rollbackTransactionToSavepoint(String name) {
        return delegate.rollbackTransactionToSavepoint(name);
    }

    @Override
    public boolean isAutoCommit() {
        return delegate.isAutoCommit();
    }

    @Override
    public Publisher<Void> setAutoCommit(boolean autoCommit) {
        return delegate.setAutoCommit(autoCommit);
    }

    @Override
    public IsolationLevel getTransactionIsolationLevel() {
        return delegate.getTransactionIsolationLevel();
    }

    @Override
    public Publisher<Void> setTransactionIsolationLevel(IsolationLevel isolationLevel) {
        return delegate.setTransactionIsolationLevel(isolationLevel);
    }

    @Override
    public Publisher<Void> setLockWaitTimeout(Duration timeout) {
        return delegate.setLockWaitTimeout(timeout);
    }

    @Override
    public Publisher<Void> setStatementTimeout(Duration timeout) {
        return delegate.setStatementTimeout(timeout);
    }

    @Override
    public ConnectionMetadata getMetadata() {
        return delegate.getMetadata();
    }

    @Override
    public Publisher<Void> close() {
        return delegate.close();
    }

    @Override
    public Connection unwrap() {
        return delegate;
    }

    @Override
    public String toString() {
        return "WatchedConnection#" + number + "[" + delegate + "]";
    }
}
