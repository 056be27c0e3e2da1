package com.payorch.chaos.check;

import com.payorch.chaos.check.Checker.InvariantResult;
import com.payorch.chaos.check.Operations.Kind;
import com.payorch.chaos.check.Operations.Operation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Invariant 2: one payment per idempotency key (per merchant), and per merchant's booking at most one payment that
 * is not FAILED and at most one that ever completed (the contract's booking guard: a new payment only when all
 * earlier ones FAILED).
 *
 * <ul>
 *   <li>database: the {@code CREATE} rows of {@code payment_transitions} with {@code source = 'api'} carry the
 *       creating request's Idempotency-Key in {@code source_id}; grouped by (the payment's merchant, key), each
 *       group must hold one payment;</li>
 *   <li>history: the acknowledged creates grouped by (Authorization, Idempotency-Key) must all answer the same
 *       payment id;</li>
 *   <li>bookings: {@code payments} grouped by (merchant_id, booking_id): at most one with a status other than
 *       FAILED, and at most one with a transition to COMPLETED.</li>
 * </ul>
 * Offending keys: the idempotency keys and booking ids.
 */
final class OnePaymentPerKeyAndBooking implements Invariant {

    @Override
    public String name() {
        return "one-payment-per-key-and-booking";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        Snapshot db = context.db();
        Map<String, Snapshot.Payment> payments = db.paymentsById();
        Set<String> offending = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();

        Map<String, Set<String>> byKey = new LinkedHashMap<>();
        for (Snapshot.Transition t : db.transitions()) {
            if (t.event().equals("CREATE") && "api".equals(t.source()) && t.sourceId() != null) {
                Snapshot.Payment payment = payments.get(t.paymentId());
                String merchant = payment == null ? "?" : payment.merchantId();
                byKey.computeIfAbsent(merchant + "\u0000" + t.sourceId(), k -> new LinkedHashSet<>())
                        .add(t.paymentId());
            }
        }
        byKey.forEach((merchantKey, ids) -> {
            if (ids.size() > 1) {
                String key = merchantKey.substring(merchantKey.indexOf('\u0000') + 1);
                problems.add("key " + key + " created " + ids.size() + " payments " + ids);
                offending.add(key);
                offending.addAll(ids);
            }
        });

        Map<String, Set<String>> answered = new LinkedHashMap<>();
        for (Operation op : context.operations()) {
            if (op.kind() == Kind.CREATE && op.acknowledged()) {
                String id = op.responseJson().path("id").asText(null);
                if (id != null) {
                    answered.computeIfAbsent(op.authorization() + "\u0000" + op.idempotencyKey(),
                            k -> new LinkedHashSet<>()).add(id);
                }
            }
        }
        answered.forEach((authKey, ids) -> {
            if (ids.size() > 1) {
                String key = authKey.substring(authKey.indexOf('\u0000') + 1);
                problems.add("key " + key + " was answered with " + ids.size() + " payments " + ids);
                offending.add(key);
                offending.addAll(ids);
            }
        });

        Set<String> completedOnce = new HashSet<>();
        db.transitions().stream().filter(t -> "COMPLETED".equals(t.toStatus()))
                .forEach(t -> completedOnce.add(t.paymentId()));
        Map<String, List<Snapshot.Payment>> byBooking = new LinkedHashMap<>();
        db.payments().forEach(p -> byBooking.computeIfAbsent(Snapshot.bookingKey(p.merchantId(), p.bookingId()),
                k -> new ArrayList<>()).add(p));
        byBooking.forEach((booking, list) -> {
            // A hold released before it was authorised ended without money, as a FAILED payment (V20's guard).
            List<String> live = list.stream().filter(p -> !p.status().equals("FAILED")
                    && !(p.status().equals("CANCELLED") && !p.authorized())).map(Snapshot.Payment::id).toList();
            List<String> completed = list.stream().map(Snapshot.Payment::id).filter(completedOnce::contains)
                    .toList();
            if (live.size() > 1 || completed.size() > 1) {
                problems.add("booking " + booking + " has " + live.size() + " payments not FAILED " + live + " and "
                        + completed.size() + " that completed " + completed);
                offending.add(list.get(0).bookingId());
            }
        });

        String detail = byKey.size() + " keys with a created payment, " + answered.size()
                + " acknowledged create keys, " + byBooking.size() + " bookings"
                + (problems.isEmpty() ? ": one payment each" : "; " + problems.size() + " problems, first: "
                        + problems.get(0));
        return new InvariantResult(name(), problems.isEmpty(), detail, offending);
    }
}
