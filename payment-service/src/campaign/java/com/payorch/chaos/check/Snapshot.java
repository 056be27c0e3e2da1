package com.payorch.chaos.check;

import com.payorch.chaos.CampaignFacts;
import com.payorch.testsupport.MoneyInvariant;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The service's tables as the checker reads them: one REPEATABLE READ transaction over plain JDBC, so every invariant
 * looks at the same consistent state. Only the columns the invariants use are read.
 */
record Snapshot(
        List<Payment> payments,
        List<Attempt> attempts,
        List<Transition> transitions,
        List<Event> events,
        List<Booking> bookings,
        List<Refund> refunds,
        List<IdempotencyKey> idempotencyKeys,
        List<SandboxCharge> sandboxCharges,
        List<SandboxRefund> sandboxRefunds,
        List<Delivery> deliveries,
        List<Dispute> disputes,
        List<SandboxDisputed> sandboxDisputed) {

    Snapshot(List<Payment> payments, List<Attempt> attempts, List<Transition> transitions, List<Event> events,
             List<Booking> bookings, List<Refund> refunds, List<IdempotencyKey> idempotencyKeys,
             List<SandboxCharge> sandboxCharges, List<SandboxRefund> sandboxRefunds, List<Delivery> deliveries) {
        this(payments, attempts, transitions, events, bookings, refunds, idempotencyKeys, sandboxCharges,
                sandboxRefunds, deliveries, List.of(), List.of());
    }

    /**
     * @param amountCaptured what was taken (a COMPLETED automatic payment: its amount)
     * @param authorized the payment was AUTHORIZED at some point (a hold: it activated its booking)
     * @param cancelRequested a cancel was recorded (and may still be sent)
     * @param failureReason why it FAILED (null otherwise)
     * @param returnUrl where the customer returns after acting (null: the customer cannot act)
     * @param amountDisputed what its OPEN and LOST disputes hold (V24)
     */
    record Payment(String id, String merchantId, String bookingId, long amount, String currency, String status,
                   int attempt, String connector, String customerEmail, long amountReserved, long amountRefunded,
                   long version, String captureMethod, long amountCaptured, boolean authorized,
                   boolean cancelRequested, String failureReason, String returnUrl, long amountDisputed) {

        Payment(String id, String merchantId, String bookingId, long amount, String currency, String status,
                int attempt, String connector, String customerEmail, long amountReserved, long amountRefunded,
                long version, String captureMethod, long amountCaptured, boolean authorized,
                boolean cancelRequested, String failureReason, String returnUrl) {
            this(id, merchantId, bookingId, amount, currency, status, attempt, connector, customerEmail,
                    amountReserved, amountRefunded, version, captureMethod, amountCaptured, authorized,
                    cancelRequested, failureReason, returnUrl, 0);
        }

        Payment(String id, String merchantId, String bookingId, long amount, String currency, String status,
                int attempt, String connector, String customerEmail, long amountReserved, long amountRefunded,
                long version, String captureMethod, long amountCaptured, boolean authorized,
                boolean cancelRequested) {
            this(id, merchantId, bookingId, amount, currency, status, attempt, connector, customerEmail,
                    amountReserved, amountRefunded, version, captureMethod, amountCaptured, authorized,
                    cancelRequested, null, null);
        }

        boolean manual() {
            return "manual".equals(captureMethod);
        }
    }

    record Attempt(String paymentId, int number, String connector, String reference, String status,
                   boolean orphaned) {
    }

    /** @param ordinal 1 for the payment's first transition (its CREATE), one more for each later one: its version */
    record Transition(long id, String paymentId, String fromStatus, String toStatus, String event, String source,
                      String sourceId, int ordinal) {
    }

    record Event(long seq, String id, String merchantId, String type, String paymentId, String bookingId,
                 String data) {
    }

    record Booking(String merchantId, String id, String status, String paymentId, boolean activated,
                   boolean cancelled) {
    }

    record Refund(String id, String paymentId, int attempt, long amount, String status, String connector,
                  String chargeReference, boolean countsAgainstPayment) {
    }

    record IdempotencyKey(String merchantId, String key, String method, String path, String recoveryPoint,
                          String paymentId, String refundId, Integer responseStatus) {
    }

    /** The hold columns (V21) are null/0 for an automatic charge, or when the schema has none. */
    record SandboxCharge(String id, String paymentId, int attempt, long amount, String currency, String status,
                         String captureMethod, int captures, String captureKey, Long captureAmount,
                         Long amountCaptured) {
    }

    record SandboxRefund(String id, String refundId, String chargeId, String paymentId, long amount, String status) {
    }

    record Delivery(String eventId, String merchantId, int attempt, String status, Integer responseStatus) {
    }

    record Dispute(String id, String paymentId, String connector, String connectorReference, long amount,
                   String status) {
    }

    /**
     * A sandbox charge made with {@code pm_card_disputed} that succeeded: the sandbox reports its dispute itself
     * (opened, then lost), whether or not the campaign's gateways saw the payment completed.
     *
     * @param webhooksFinished whether the sandbox delivered all of the charge's webhooks (its dispute's included)
     */
    record SandboxDisputed(String chargeId, String paymentId, long amount, boolean webhooksFinished) {
    }

    static Snapshot read(CampaignFacts.Database database) {
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.user(),
                database.password())) {
            connection.setSchema(database.schema());
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            connection.setAutoCommit(false);
            try {
                List<Transition> transitions = new ArrayList<>();
                Map<String, Integer> ordinals = new LinkedHashMap<>();
                for (Transition t : list(connection, """
                        select id, payment_id, from_status, to_status, event, source, source_id
                        from payment_transitions order by payment_id, id""",
                        rs -> new Transition(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                                rs.getString(5), rs.getString(6), rs.getString(7), 0))) {
                    int ordinal = ordinals.merge(t.paymentId(), 1, Integer::sum);
                    transitions.add(new Transition(t.id(), t.paymentId(), t.fromStatus(), t.toStatus(), t.event(),
                            t.source(), t.sourceId(), ordinal));
                }
                Snapshot snapshot = new Snapshot(
                        list(connection, """
                                select id, merchant_id, booking_id, amount, currency, status, attempt, connector,
                                       customer_email, amount_reserved, amount_refunded, version, capture_method,
                                       amount_captured, authorized_at is not null, cancel_requested_at is not null,
                                       failure_reason, return_url, amount_disputed
                                from payments order by created_at, id""",
                                rs -> new Payment(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                                        rs.getString(5).trim(), rs.getString(6), rs.getInt(7), rs.getString(8),
                                        rs.getString(9), rs.getLong(10), rs.getLong(11), rs.getLong(12),
                                        rs.getString(13), rs.getLong(14), rs.getBoolean(15), rs.getBoolean(16),
                                        rs.getString(17), rs.getString(18), rs.getLong(19))),
                        list(connection, """
                                select payment_id, number, connector, reference, status, orphaned_at is not null
                                from payment_attempts order by payment_id, number""",
                                rs -> new Attempt(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4),
                                        rs.getString(5), rs.getBoolean(6))),
                        transitions,
                        list(connection, """
                                select seq, id, merchant_id, type, payment_id, booking_id, data::text
                                from events order by seq""",
                                rs -> new Event(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                                        rs.getString(5), rs.getString(6), rs.getString(7))),
                        list(connection, """
                                select merchant_id, id, status, payment_id, activated_at is not null,
                                       cancelled_at is not null
                                from bookings order by merchant_id, id""",
                                rs -> new Booking(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                                        rs.getBoolean(5), rs.getBoolean(6))),
                        list(connection, """
                                select id, payment_id, attempt, amount, status, connector, charge_reference,
                                       counts_against_payment
                                from refunds order by created_at, id""",
                                rs -> new Refund(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getLong(4),
                                        rs.getString(5), rs.getString(6), rs.getString(7), rs.getBoolean(8))),
                        // a refund request's key names its refund (resource_id), whose row names the payment
                        list(connection, """
                                select k.merchant_id, k.idempotency_key, k.request_method, k.request_path,
                                       k.recovery_point, coalesce(r.payment_id, k.resource_id), r.id,
                                       k.response_status
                                from idempotency_keys k left join refunds r on r.id = k.resource_id""",
                                rs -> new IdempotencyKey(rs.getString(1), rs.getString(2), rs.getString(3),
                                        rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7),
                                        (Integer) rs.getObject(8))),
                        list(connection, """
                                select * from sandbox_charges order by created_at, id""",
                                rs -> {
                                    boolean holds = MoneyInvariant.hasColumn(rs, "capture_method");
                                    return new SandboxCharge(rs.getString("id"), rs.getString("payment_id"),
                                            rs.getInt("attempt"), rs.getLong("amount"),
                                            rs.getString("currency").trim(), rs.getString("status"),
                                            holds ? rs.getString("capture_method") : "automatic",
                                            holds ? rs.getInt("captures") : 0,
                                            holds ? rs.getString("capture_key") : null,
                                            holds ? rs.getObject("capture_amount", Long.class) : null,
                                            holds ? rs.getObject("amount_captured", Long.class) : null);
                                }),
                        list(connection, """
                                select id, refund_id, charge_id, payment_id, amount, status from sandbox_refunds
                                order by created_at, id""",
                                rs -> new SandboxRefund(rs.getString(1), rs.getString(2), rs.getString(3),
                                        rs.getString(4), rs.getLong(5), rs.getString(6))),
                        list(connection, """
                                select event_id, merchant_id, attempt, status, response_status
                                from webhook_deliveries order by event_id, attempt""",
                                rs -> new Delivery(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4),
                                        (Integer) rs.getObject(5))),
                        list(connection, """
                                select id, payment_id, connector, connector_reference, amount, status
                                from disputes order by created_at, id""",
                                rs -> new Dispute(rs.getString(1), rs.getString(2), rs.getString(3),
                                        rs.getString(4), rs.getLong(5), rs.getString(6))),
                        list(connection, """
                                select id, payment_id, amount, webhooks_finished_at is not null from sandbox_charges
                                where payment_method = 'pm_card_disputed' and status = 'succeeded'
                                order by created_at, id""",
                                rs -> new SandboxDisputed(rs.getString(1), rs.getString(2), rs.getLong(3),
                                        rs.getBoolean(4))));
                connection.commit();
                return snapshot;
            } finally {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the service's schema " + database.schema() + ": "
                    + e.getMessage(), e);
        }
    }

    /** The rows {@link MoneyInvariant} reads. */
    MoneyInvariant.Books books() {
        return new MoneyInvariant.Books(
                payments.stream().map(p -> new MoneyInvariant.Payment(p.id(), p.status(), p.attempt(), p.connector(),
                        p.amount(), p.amountReserved(), p.amountRefunded(), p.amountCaptured())).toList(),
                attempts.stream().map(a -> new MoneyInvariant.Attempt(a.paymentId(), a.number(), a.connector(),
                        a.reference(), a.orphaned())).toList(),
                refunds.stream().map(r -> new MoneyInvariant.Refund(r.id(), r.paymentId(), r.attempt(), r.amount(),
                        r.status(), r.connector(), r.chargeReference(), r.countsAgainstPayment())).toList());
    }

    Map<String, Payment> paymentsById() {
        return payments.stream().collect(Collectors.toMap(Payment::id, Function.identity(), (a, b) -> a,
                LinkedHashMap::new));
    }

    Map<String, List<Attempt>> attemptsByPayment() {
        return attempts.stream().collect(Collectors.groupingBy(Attempt::paymentId, LinkedHashMap::new,
                Collectors.toList()));
    }

    Map<String, List<Transition>> transitionsByPayment() {
        return transitions.stream().sorted(Comparator.comparingLong(Transition::id))
                .collect(Collectors.groupingBy(Transition::paymentId, LinkedHashMap::new, Collectors.toList()));
    }

    Map<String, List<Event>> eventsByPayment() {
        return events.stream().filter(e -> e.paymentId() != null)
                .collect(Collectors.groupingBy(Event::paymentId, LinkedHashMap::new, Collectors.toList()));
    }

    /** A merchant's booking, keyed {@code merchant + "/" + booking}. */
    static String bookingKey(String merchantId, String bookingId) {
        return merchantId + "/" + bookingId;
    }

    private interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private static <T> List<T> list(Connection connection, String sql, RowMapper<T> mapper) throws SQLException {
        try (var statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            List<T> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(mapper.map(rs));
            }
            return rows;
        }
    }
}
