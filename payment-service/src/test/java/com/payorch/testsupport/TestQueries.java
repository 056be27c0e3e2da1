package com.payorch.testsupport;

import io.r2dbc.spi.ConnectionFactory;
import java.time.Duration;
import org.springframework.context.ApplicationContext;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Blocking one-line queries for assertions, over a service's own database connections (so its schema too): counts,
 * single values, a payment's status. Positional parameters are bound as $1, $2, …
 */
public final class TestQueries {

    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final DatabaseClient db;

    public TestQueries(DatabaseClient db) {
        this.db = db;
    }

    /** Over the context's R2DBC ConnectionFactory, for tests that start a context of their own. */
    public static TestQueries of(ApplicationContext context) {
        return new TestQueries(DatabaseClient.create(context.getBean(ConnectionFactory.class)));
    }

    /** The first column of the one row, as a number: a count(*), a version. */
    public long count(String sql, Object... args) {
        return bound(sql, args).map(row -> row.get(0, Long.class)).one().block(TIMEOUT);
    }

    /** The first column of the one row, as text ("null" for SQL NULL); null when there is no row. */
    public String text(String sql, Object... args) {
        return bound(sql, args).map(row -> String.valueOf(row.get(0))).one().block(TIMEOUT);
    }

    /** Rows changed by an INSERT, UPDATE or DELETE. */
    public long update(String sql, Object... args) {
        return bound(sql, args).fetch().rowsUpdated().block(TIMEOUT);
    }

    /** The payment's status as stored (PENDING, PROCESSING, COMPLETED, FAILED). */
    public String statusOf(String paymentId) {
        return text("select status from payments where id = $1", paymentId);
    }

    /** The id of the one payment made for this booking. */
    public String paymentOfBooking(String bookingId) {
        return text("select id from payments where booking_id = $1", bookingId);
    }

    private DatabaseClient.GenericExecuteSpec bound(String sql, Object... args) {
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql);
        for (int i = 0; i < args.length; i++) {
            spec = spec.bind(i, args[i]);
        }
        return spec;
    }
}
