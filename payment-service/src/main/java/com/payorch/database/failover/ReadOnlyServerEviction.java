package com.payorch.database.failover;

import io.r2dbc.spi.ConnectionFactory;
import org.springframework.boot.r2dbc.ConnectionFactoryDecorator;
import org.springframework.stereotype.Component;

/**
 * Drops the pool's connections once the server behind them refuses a write as read-only (SQLSTATE 25006).
 *
 * <p>A multi-host URL with {@code targetServerType=primary} only decides where a <em>new</em> connection goes; the
 * pool keeps the ones it has. After a failover that leaves the old primary running read-only (demoted, or fenced with
 * {@code default_transaction_read_only}), those connections would refuse every write for as long as they live. Boot
 * applies this decorator to the driver's factory, beneath the pool: the request that meets the refusal answers 503,
 * and every connection opened until then reports itself invalid, so the pool's check on hand-out closes it and opens
 * a new one. A connection to a server that died needs none of this: it is closed, which that check already sees.
 */
@Component
class ReadOnlyServerEviction implements ConnectionFactoryDecorator {

    @Override
    public ConnectionFactory decorate(ConnectionFactory delegate) {
        return new WatchedConnectionFactory(delegate, new ConnectionRetirement());
    }
}
