package com.payorch.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * V16 moves keys written in the old shape (payment_id, refund_id with foreign keys) into the new one (the caller's
 * recovery point and resource_id, no foreign key): every key resumes at the step it had, with the id that step
 * committed. Runs in a schema of its own, migrated to V15 first.
 */
class IdempotencyKeysMigrationIT {

    @Test
    void keysOfTheOldShapeKeepTheirRecoveryPointAndNameTheResourceOfIt() throws SQLException {
        String schema = "v16_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        migrate(schema, "15");
        try (Connection connection = connect(schema); Statement sql = connection.createStatement()) {
            sql.execute("""
                    insert into payments (id, merchant_id, booking_id, amount, currency, payment_method, status,
                                          version, created_at, updated_at, amount_reserved)
                    values ('pay_1', 'm', 'b1', 1000, 'EUR', 'pm_card_ok', 'COMPLETED', 3, now(), now(), 400)""");
            sql.execute("""
                    insert into refunds (id, merchant_id, payment_id, attempt, amount, currency, status, connector,
                                         version, created_at, updated_at)
                    values ('re_1', 'm', 'pay_1', 1, 400, 'EUR', 'PENDING', 'sandbox', 1, now(), now())""");
            insertKey(sql, "started", "STARTED", null, null);
            insertKey(sql, "payment-created", "PAYMENT_CREATED", "'pay_1'", null);
            insertKey(sql, "payment-finished", "FINISHED", "'pay_1'", null);
            insertKey(sql, "refund-created", "REFUND_CREATED", "'pay_1'", "'re_1'");
            insertKey(sql, "refund-finished", "FINISHED", "'pay_1'", "'re_1'");
        }

        migrate(schema, "16");

        try (Connection connection = connect(schema); Statement sql = connection.createStatement()) {
            Map<String, String> keys = new LinkedHashMap<>();
            try (ResultSet rows = sql.executeQuery("""
                    select idempotency_key, recovery_point || ' ' || coalesce(resource_id, '-')
                    from idempotency_keys order by idempotency_key""")) {
                while (rows.next()) {
                    keys.put(rows.getString(1), rows.getString(2));
                }
            }
            assertThat(keys).containsExactly(
                    Map.entry("payment-created", "PAYMENT_CREATED pay_1"),
                    Map.entry("payment-finished", "FINISHED pay_1"),
                    Map.entry("refund-created", "REFUND_CREATED re_1"),
                    Map.entry("refund-finished", "FINISHED re_1"),
                    Map.entry("started", "STARTED -"));
            try (ResultSet rows = sql.executeQuery("""
                    select count(*) from information_schema.table_constraints
                    where table_schema = current_schema() and table_name = 'idempotency_keys'
                      and constraint_type = 'FOREIGN KEY'""")) {
                rows.next();
                assertThat(rows.getInt(1)).as("foreign keys of idempotency_keys").isZero();
            }
            // the caller names its own steps now
            sql.execute("""
                    insert into idempotency_keys (merchant_id, idempotency_key, fingerprint, request_method,
                        request_path, recovery_point, resource_id, created_at, expires_at)
                    values ('m', 'caller-step', 'f', 'POST', '/v1/other', 'ORDER_CREATED', 'ord_1', now(),
                        now() + interval '1 day')""");
        } finally {
            try (Connection connection = connect(schema); Statement sql = connection.createStatement()) {
                sql.execute("drop schema " + schema + " cascade");
            }
        }
    }

    private static void insertKey(Statement sql, String key, String recoveryPoint, String paymentId, String refundId)
            throws SQLException {
        sql.execute("""
                insert into idempotency_keys (merchant_id, idempotency_key, fingerprint, request_method, request_path,
                    recovery_point, payment_id, refund_id, created_at, expires_at)
                values ('m', '%s', 'f', 'POST', '/v1/payments', '%s', %s, %s, now(), now() + interval '1 day')"""
                .formatted(key, recoveryPoint, paymentId, refundId));
    }

    /** Flyway confines itself to the schema: it is created, and it is the search path while migrating. */
    private static void migrate(String schema, String version) {
        TestDatabase database = TestDatabase.get();
        Flyway.configure()
                .dataSource(database.jdbcUrl(), database.username(), database.password())
                .schemas(schema)
                .target(version)
                .load()
                .migrate();
    }

    private static Connection connect(String schema) throws SQLException {
        TestDatabase database = TestDatabase.get();
        Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.username(),
                database.password());
        try (Statement sql = connection.createStatement()) {
            sql.execute("set search_path to " + schema);
        }
        return connection;
    }
}
