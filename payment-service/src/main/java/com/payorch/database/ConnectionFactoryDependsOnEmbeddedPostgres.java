package com.payorch.database;

import io.r2dbc.spi.ConnectionFactory;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import org.springframework.boot.autoconfigure.AbstractDependsOnBeanFactoryPostProcessor;

/**
 * Boot's R2DBC pool reads its connection details through an ObjectProvider, which records no bean dependency;
 * without this, nothing guarantees the pool is closed before PostgreSQL is stopped on shutdown.
 */
class ConnectionFactoryDependsOnEmbeddedPostgres extends AbstractDependsOnBeanFactoryPostProcessor {

    ConnectionFactoryDependsOnEmbeddedPostgres() {
        super(ConnectionFactory.class, EmbeddedPostgres.class);
    }
}
