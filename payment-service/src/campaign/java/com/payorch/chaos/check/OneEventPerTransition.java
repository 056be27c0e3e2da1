package com.payorch.chaos.check;

import com.payorch.chaos.check.Checker.InvariantResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Invariant 10: exactly one event per transition, and no event without its transition.
 *
 * <ul>
 *   <li>payments: a payment's {@code version} is the ordinal of its transitions (CREATE is version 1, each later
 *       row of {@code payment_transitions} one more), and every transition writes the event
 *       {@code PaymentStateChanges.eventFor} names: CREATE → {@code payment.created}, to REQUIRES_ACTION →
 *       {@code payment.requires_action}, to PROCESSING →
 *       {@code payment.processing}, to COMPLETED → {@code payment.completed}, to FAILED → {@code payment.failed},
 *       RETRY (to PENDING) → none; each with {@code data.version} = that ordinal. The payment's {@code payment.*}
 *       events, keyed (type, data.version), must match the transitions' expected keys one to one;</li>
 *   <li>refunds (their own life cycle, PENDING → SUCCEEDED | FAILED, SUCCEEDED → FAILED by REVERSE): one
 *       {@code refund.created}, and one {@code refund.succeeded} / {@code refund.failed} exactly when the refund is
 *       SUCCEEDED / FAILED, or, for a reversed one, one {@code refund.succeeded} and one {@code refund.reversed},
 *       matched by {@code data.refundId}; no refund event for an unknown refund;</li>
 *   <li>orphaned attempts: one {@code charge.orphaned} (by payment and {@code data.attempt}) per attempt with
 *       {@code orphaned_at}, none for another.</li>
 * </ul>
 * Booking events are invariant 5's and 8's. Offending keys: payment ids.
 */
final class OneEventPerTransition implements Invariant {

    @Override
    public String name() {
        return "one-event-per-transition";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        Snapshot db = context.db();
        Set<String> offending = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        Map<String, Integer> expected = new HashMap<>();
        Map<String, List<String>> typed = new HashMap<>();
        int transitions = 0;
        for (Snapshot.Transition t : db.transitions()) {
            transitions++;
            String type = switch (t.toStatus()) {
                case "PENDING" -> t.event().equals("CREATE") ? "payment.created" : null;
                case "PROCESSING" -> "payment.processing";
                case "COMPLETED" -> "payment.completed";
                case "FAILED" -> "payment.failed";
                // Holds (issue 23): a capture that failed returns to AUTHORIZED with its own event; a capture
                // sent writes none (its outcome is the event).
                case "AUTHORIZED" -> t.event().equals("CAPTURE_FAIL") ? "payment.capture_failed"
                        : "payment.authorized";
                case "CAPTURING" -> null;
                case "CANCELLED" -> "payment.cancelled";
                // Customer action (issue 24): waiting for the customer is a transition with its own event.
                case "REQUIRES_ACTION" -> "payment.requires_action";
                default -> "unknown:" + t.toStatus();
            };
            if (type != null) {
                expected.merge(t.paymentId() + " " + type + " v" + t.ordinal(), 1, Integer::sum);
                typed.computeIfAbsent(t.paymentId(), k -> new ArrayList<>()).add(type + " v" + t.ordinal());
            }
        }
        Map<String, Integer> actual = new HashMap<>();
        Map<String, Integer> refundEvents = new HashMap<>();
        Map<String, Integer> orphanEvents = new HashMap<>();
        int events = 0;
        for (Snapshot.Event event : db.events()) {
            JsonNode data = Operations.json(event.data());
            if (event.type().startsWith("payment.")) {
                events++;
                actual.merge(event.paymentId() + " " + event.type() + " v" + data.path("version").asLong(-1), 1,
                        Integer::sum);
            } else if (event.type().startsWith("refund.")) {
                events++;
                refundEvents.merge(data.path("refundId").asText("?") + " " + event.type(), 1, Integer::sum);
            } else if (event.type().equals("charge.orphaned")) {
                events++;
                orphanEvents.merge(event.paymentId() + "#" + data.path("attempt").asInt(-1), 1, Integer::sum);
            }
        }
        afterCancelRequests(db, typed, expected, actual);
        Set<String> keys = new LinkedHashSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        for (String key : keys) {
            int want = expected.getOrDefault(key, 0);
            int have = actual.getOrDefault(key, 0);
            if (want != 1 || have != 1) {
                problems.add(key + ": " + have + " events for " + want + " transitions");
                offending.add(key.substring(0, key.indexOf(' ')));
            }
        }
        Map<String, String> refundPayments = new HashMap<>();
        for (Snapshot.Refund refund : db.refunds()) {
            refundPayments.put(refund.id(), refund.paymentId());
            int created = refundEvents.getOrDefault(refund.id() + " refund.created", 0);
            int succeeded = refundEvents.getOrDefault(refund.id() + " refund.succeeded", 0);
            int failed = refundEvents.getOrDefault(refund.id() + " refund.failed", 0);
            int reversed = refundEvents.getOrDefault(refund.id() + " refund.reversed", 0);
            // REVERSE (SUCCEEDED -> FAILED, the connector took the refund back) writes refund.reversed, not failed.
            boolean wasReversed = reversed == 1 && refund.status().equals("FAILED");
            boolean asExpected = wasReversed ? created == 1 && succeeded == 1 && failed == 0
                    : created == 1 && reversed == 0 && succeeded == (refund.status().equals("SUCCEEDED") ? 1 : 0)
                            && failed == (refund.status().equals("FAILED") ? 1 : 0);
            if (!asExpected) {
                problems.add("refund " + refund.id() + " (" + refund.status() + ") has " + created + " created, "
                        + succeeded + " succeeded, " + failed + " failed, " + reversed + " reversed events");
                offending.add(refund.paymentId());
            }
        }
        refundEvents.keySet().forEach(key -> {
            String refundId = key.substring(0, key.indexOf(' '));
            if (!refundPayments.containsKey(refundId)) {
                problems.add("event " + key + " names no refund");
                offending.add(refundId);
            }
        });
        Set<String> orphanedAttempts = new LinkedHashSet<>();
        db.attempts().stream().filter(Snapshot.Attempt::orphaned)
                .forEach(a -> orphanedAttempts.add(a.paymentId() + "#" + a.number()));
        Set<String> orphanKeys = new LinkedHashSet<>(orphanedAttempts);
        orphanKeys.addAll(orphanEvents.keySet());
        for (String key : orphanKeys) {
            int want = orphanedAttempts.contains(key) ? 1 : 0;
            int have = orphanEvents.getOrDefault(key, 0);
            if (want != have) {
                problems.add("attempt " + key + ": " + have + " charge.orphaned events, expected " + want);
                offending.add(key.substring(0, key.indexOf('#')));
            }
        }
        String detail = transitions + " transitions, " + db.refunds().size() + " refunds, "
                + orphanedAttempts.size() + " orphaned attempts; " + events + " payment, refund and orphan events"
                + (problems.isEmpty() ? ": one event each, none without its transition"
                        : "; " + problems.size() + " problems, first: " + problems.get(0));
        return new InvariantResult(name(), problems.isEmpty(), detail, offending);
    }

    /**
     * A cancel recorded raises a payment's version without a transition ({@code PaymentStateChanges.requestCancel}: a
     * hold's release, the customer-action expiry): the events of the transitions after it carry one more than their
     * ordinal. A retry starts a new hold and clears the cancel, so the payment's end state need not show it; its
     * version does (one more than its transitions). For such a payment the transitions from the point where that
     * makes every event match are expected one version later; where no point does, the expectation stays as it was
     * (and the mismatch is reported).
     */
    private static void afterCancelRequests(Snapshot db, Map<String, List<String>> typed,
                                            Map<String, Integer> expected, Map<String, Integer> actual) {
        Map<String, Integer> transitionsOf = new HashMap<>();
        db.transitions().forEach(t -> transitionsOf.merge(t.paymentId(), 1, Integer::sum));
        for (Snapshot.Payment payment : db.payments()) {
            List<String> keys = typed.get(payment.id());
            boolean versionWithoutTransition = payment.version() > transitionsOf.getOrDefault(payment.id(), 0);
            if (!(payment.cancelRequested() || versionWithoutTransition) || keys == null) {
                continue;
            }
            for (int from = keys.size() - 1; from >= 0; from--) {
                List<String> shifted = new ArrayList<>();
                for (int i = 0; i < keys.size(); i++) {
                    String key = payment.id() + " " + keys.get(i);
                    if (i >= from) {
                        int v = key.lastIndexOf(" v");
                        key = key.substring(0, v) + " v" + (Long.parseLong(key.substring(v + 2)) + 1);
                    }
                    shifted.add(key);
                }
                if (shifted.stream().allMatch(actual::containsKey)) {
                    keys.forEach(k -> expected.remove(payment.id() + " " + k));
                    shifted.forEach(k -> expected.merge(k, 1, Integer::sum));
                    break;
                }
            }
        }
    }
}
