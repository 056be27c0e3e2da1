package com.payorch.database;

import java.time.Duration;

import io.r2dbc.spi.ConnectionFactory;

import org.springframework.context.ApplicationContext;
import org.springframework.r2dbc.core.DatabaseClient;

/** Blocking one-liners over the context's R2DBC ConnectionFactory, for assertions. */
final class R2dbcQueries {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private R2dbcQueries() {
    }

    static String singleValue(ApplicationContext context, String sql) {
        return client(context).sql(sql).map(row -> String.valueOf(row.get(0))).one().block(TIMEOUT);
    }

    static long update(ApplicationContext context, String sql) {
        return client(context).sql(sql).fetch().rowsUpdated().block(TIMEOUT);
    }

    private static DatabaseClient client(ApplicationContext context) {
        return DatabaseClient.create(context.getBean(ConnectionFactory.class));
    }
}
