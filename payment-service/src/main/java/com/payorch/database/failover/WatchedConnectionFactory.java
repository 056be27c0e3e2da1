package com.payorch.database.failover;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import io.r2dbc.spi.Wrapped;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/** The driver's factory, whose connections report themselves invalid once retired. */
final class WatchedConnectionFactory implements ConnectionFactory, Wrapped<ConnectionFactory> {

    private final ConnectionFactory delegate;
    private final ConnectionRetirement retirement;

    WatchedConnectionFactory(ConnectionFactory delegate, ConnectionRetirement retirement) {
        this.delegate = delegate;
        this.retirement = retirement;
    }

    @Override
    public Publisher<? extends Connection> create() {
        return Mono.from(delegate.create())
                .map(connection -> new WatchedConnection(connection, retirement.numberOpened(), retirement));
    }

    @Override
    public ConnectionFactoryMetadata getMetadata() {
        return delegate.getMetadata();
    }

    @Override
    public ConnectionFactory unwrap() {
        return delegate;
    }

    @Override
    public String toString() {
        return "WatchedConnectionFactory[" + delegate + "]";
    }
}
