package com.payorch.chaos.check;

import com.payorch.chaos.CampaignFacts;
import com.payorch.chaos.history.HistoryEntry;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a campaign's history and final state and proves its invariants, one line each (see each {@link Invariant}
 * implementation's javadoc for how it is computed, and docs/reliability.md "The checker"):
 * <ol>
 *   <li>{@link AcknowledgedEffects}: every acknowledged create/retry/refund's effect is in the database, and its
 *       replay answers the same status and body;</li>
 *   <li>{@link OnePaymentPerKeyAndBooking}: one payment per idempotency key, the booking guard held;</li>
 *   <li>{@link OneChargePerAttempt}: at most one charge per attempt across all connectors;</li>
 *   <li>(3, 6 and 7 are the parts of contract v3's money invariant, {@link com.payorch.testsupport.MoneyInvariant},
 *       the one definition the integration tests use too; each shows the violations of its kinds)</li>
 *   <li>{@link NothingLeftPending}: no payment left PENDING or PROCESSING;</li>
 *   <li>{@link BookingLifecycle}: booking activated iff a COMPLETED payment exists, once; cancelled at most once;</li>
 *   <li>{@link RefundsWithinAmounts}: refunds never exceed amounts (database and connectors' ledgers);</li>
 *   <li>{@link OrphanedChargesRefunded}: every orphaned charge refunded exactly once;</li>
 *   <li>{@link OneConfirmationPerBooking}: exactly one confirmation e-mail per activated booking;</li>
 *   <li>{@link EventsDelivered}: every event delivered to the merchant (and to Kafka when enabled);</li>
 *   <li>{@link OneEventPerTransition}: exactly one event per transition;</li>
 *   <li>{@link HoldsWithinAuthorisation}: holds captured within what was authorised, once;</li>
 *   <li>{@link CustomerActionsSettleOnce}: every payment that waited for its customer settled once, as the
 *       customer answered (approved, declined, abandoned until the expiry).</li>
 *   <li>{@link DisputesOncePerReference}: one dispute per connector dispute reference, as the PSP reported it, and
 *       every refund granted fits in what the disputes left (refunded + disputed <= captured).</li>
 * </ol>
 * The database is read once, in one REPEATABLE READ transaction ({@link Snapshot}), and the outside world's facts
 * copied once ({@link FrozenFacts}), before any replay is sent. An
 * invariant that throws fails with the exception's message; the others still run.
 */
public final class Checker {

    private static final List<Invariant> INVARIANTS = List.of(
            new AcknowledgedEffects(),
            new OnePaymentPerKeyAndBooking(),
            new OneChargePerAttempt(),
            new NothingLeftPending(),
            new BookingLifecycle(),
            new RefundsWithinAmounts(),
            new OrphanedChargesRefunded(),
            new OneConfirmationPerBooking(),
            new EventsDelivered(),
            new OneEventPerTransition(),
            new HoldsWithinAuthorisation(),
            new CustomerActionsSettleOnce(),
            new DisputesOncePerReference());

    private Checker() {
    }

    public static Report check(CampaignFacts facts, List<HistoryEntry> history) {
        CheckContext context;
        try {
            Snapshot db = Snapshot.read(facts.database());
            FrozenFacts frozen = FrozenFacts.of(facts);
            context = new CheckContext(frozen, history, Operations.of(history), db, Charges.of(frozen, db));
        } catch (RuntimeException e) {
            return new Report(INVARIANTS.stream()
                    .map(invariant -> new InvariantResult(invariant.name(), false,
                            "could not read the final state: " + e, Set.of()))
                    .toList());
        }
        List<InvariantResult> results = new java.util.ArrayList<>();
        for (Invariant invariant : INVARIANTS) {
            try {
                results.add(invariant.check(context));
            } catch (RuntimeException e) {
                results.add(new InvariantResult(invariant.name(), false, "the check threw " + e, Set.of()));
            }
        }
        return new Report(List.copyOf(results));
    }

    /**
     * Background work the service still owes, by kind (zero when settled): what a campaign can wait on before it
     * calls {@link #check} (with {@code payments.recovery.*} short enough that recovery finishes within the wait).
     * Kinds: {@code payments PENDING/PROCESSING}, {@code payments REQUIRES_ACTION} (settled by the customer or, at the
     * latest, by the expiry after {@code payments.customer-action.expires-after}), {@code refunds PENDING}, {@code events undispatched} (parked ones
     * included), {@code merchant deliveries pending}, {@code confirmations unsent} and {@code cancellation e-mails
     * unsent} (claimed rows whose e-mail is not marked sent), {@code sandbox charges processing}.
     */
    public static Map<String, Long> outstandingWork(CampaignFacts.Database database) {
        Map<String, String> queries = new java.util.LinkedHashMap<>();
        queries.put("payments PENDING/PROCESSING", "select count(*) from payments where status in ('PENDING', 'PROCESSING')");
        queries.put("payments REQUIRES_ACTION", "select count(*) from payments where status = 'REQUIRES_ACTION'");
        queries.put("refunds PENDING", "select count(*) from refunds where status = 'PENDING'");
        queries.put("events undispatched", "select count(*) from events where dispatched_at is null");
        queries.put("merchant deliveries pending", "select count(*) from webhook_deliveries where status = 'pending'");
        queries.put("confirmations unsent", "select count(*) from booking_confirmations where sent_at is null");
        queries.put("cancellation e-mails unsent",
                "select count(*) from booking_cancellation_emails where sent_at is null");
        queries.put("sandbox charges processing", "select count(*) from sandbox_charges where status = 'processing'");
        queries.put("holds capturing or being released", "select count(*) from payments where status = 'CAPTURING'"
                + " or (cancel_requested_at is not null and status in ('PENDING', 'PROCESSING', 'AUTHORIZED'))");
        queries.put("sandbox captures in flight", "select count(*) from sandbox_charges where status = 'capturing'");
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection(database.jdbcUrl(),
                database.user(), database.password())) {
            connection.setSchema(database.schema());
            for (Map.Entry<String, String> query : queries.entrySet()) {
                try (var statement = connection.createStatement(); var rs = statement.executeQuery(query.getValue())) {
                    rs.next();
                    counts.put(query.getKey(), rs.getLong(1));
                }
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("Could not read the service's schema " + database.schema(), e);
        }
        return counts;
    }

    /**
     * The history entries that concern an offending key of a failed invariant (the key appears in the entry's path,
     * a request header, the request body or the response body), in history order: what a failed campaign writes out
     * next to its seed and fault schedule. NEMESIS entries are not included (the schedule is written whole).
     */
    public static List<HistoryEntry> offendingHistory(Report report, List<HistoryEntry> history) {
        Set<String> keys = new java.util.LinkedHashSet<>();
        report.results().stream().filter(result -> !result.passed())
                .forEach(result -> keys.addAll(result.offendingKeys()));
        keys.removeIf(key -> key == null || key.isBlank());
        if (keys.isEmpty()) {
            return List.of();
        }
        return history.stream().filter(entry -> entry.kind() != HistoryEntry.Kind.NEMESIS)
                .filter(entry -> keys.stream().anyMatch(key -> mentions(entry, key)))
                .toList();
    }

    private static boolean mentions(HistoryEntry entry, String key) {
        return (entry.path() != null && entry.path().contains(key))
                || (entry.requestHeaders() != null && entry.requestHeaders().values().stream()
                        .anyMatch(value -> value != null && value.contains(key)))
                || (entry.requestBody() != null && entry.requestBody().contains(key))
                || (entry.responseBody() != null && entry.responseBody().contains(key));
    }

    /**
     * @param offendingKeys payment ids, idempotency keys or booking ids that break the invariant, to pick the
     *        offending entries out of the history
     */
    public record InvariantResult(String name, boolean passed, String detail, Set<String> offendingKeys) {
    }

    public record Report(List<InvariantResult> results) {

        public long passed() {
            return results.stream().filter(InvariantResult::passed).count();
        }

        public long failed() {
            return results.size() - passed();
        }

        /** One line per invariant, then {@code "N passed, M failed"}. */
        public List<String> lines() {
            var lines = new java.util.ArrayList<String>();
            results.forEach(result -> lines.add((result.passed() ? "PASS " : "FAIL ") + result.name()
                    + (result.detail() == null || result.detail().isBlank() ? "" : ": " + result.detail())));
            lines.add(passed() + " passed, " + failed() + " failed");
            return lines;
        }
    }
}
