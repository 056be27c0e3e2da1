package com.payorch.chaos.check;

import com.payorch.chaos.check.Checker.InvariantResult;
import com.payorch.chaos.check.Operations.Kind;
import com.payorch.chaos.check.Operations.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import tools.jackson.databind.JsonNode;

/**
 * Invariant 1: every acknowledged (2xx) create, retry, refund, capture and cancel left its effect in the database,
 * and its replay answers the same.
 *
 * <p>Acknowledged operations are the history's ANSWERED 2xx entries whose request is {@code POST /v1/payments},
 * {@code POST /v1/payments/{id}/retry}, {@code /refunds}, {@code /capture} or {@code /cancel} (by method and path,
 * whatever the operation is called). The effect, from the answer's body:
 * <ul>
 *   <li>create: the payment {@code id} exists in {@code payments} with the request's {@code bookingId},
 *       {@code amount} and {@code currency};</li>
 *   <li>retry: the payment of the path exists and has a {@code RETRY} row in {@code payment_transitions} with
 *       {@code source = 'api'} and {@code source_id} = the request's Idempotency-Key, and the answer's
 *       {@code attempt} exists in {@code payment_attempts};</li>
 *   <li>refund: the refund {@code id} exists in {@code refunds}, of the path's payment, with the answer's
 *       {@code amount};</li>
 *   <li>capture: the payment of the path exists and has a {@code CAPTURE} row in {@code payment_transitions} with
 *       {@code source = 'api'} and {@code source_id} = the request's Idempotency-Key (the capture was recorded;
 *       whether the connector then took the money is the holds invariant's);</li>
 *   <li>cancel: the payment of the path exists and its cancel is recorded ({@code cancel_requested_at}) or it is
 *       {@code CANCELLED};</li>
 *   <li>for all five: the key's row in {@code idempotency_keys} (the payment's merchant, the key) is
 *       {@code FINISHED}, stores the acknowledged status and names that payment (and refund).</li>
 * </ul>
 * Replay: each distinct request (method, path, recorded headers, body) is sent once more, after the run, to the
 * instances in turn (8 at a time); its status must equal every acknowledged answer's status, its body must be
 * the same bytes (compared as UTF-8 text) as every acknowledged answer's body, and its {@code Location} and
 * {@code ETag} the acknowledged ones (when the history recorded them). A request whose effect is missing is not
 * replayed (without a finished key the replay would execute it again). Offending keys: the Idempotency-Keys
 * (and payment ids) concerned.
 */
final class AcknowledgedEffects implements Invariant {

    private static final int CONCURRENCY = 8;

    @Override
    public String name() {
        return "acknowledged-effects-and-replays";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        List<Operation> acknowledged = context.operations().stream()
                .filter(Operation::acknowledged)
                .filter(op -> op.kind() != Kind.OTHER)
                .toList();
        Snapshot db = context.db();
        Map<String, Snapshot.Payment> payments = db.paymentsById();
        Map<String, Snapshot.IdempotencyKey> keys = new HashMap<>();
        db.idempotencyKeys().forEach(k -> keys.put(k.merchantId() + "\u0000" + k.key(), k));
        Map<String, Snapshot.Refund> refunds = new HashMap<>();
        db.refunds().forEach(r -> refunds.put(r.id(), r));
        Set<String> retryTransitions = apiTransitions(db, "RETRY");
        Set<String> captureTransitions = apiTransitions(db, "CAPTURE");
        Set<String> attempts = new java.util.HashSet<>();
        db.attempts().forEach(a -> attempts.add(a.paymentId() + "\u0000" + a.number()));

        Set<String> offending = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        // A request whose effect is missing is not replayed: without a finished key the replay would execute it.
        Set<Operation> unreplayable = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        int creates = 0;
        int retries = 0;
        int refundCount = 0;
        int captures = 0;
        int cancels = 0;
        for (Operation op : acknowledged) {
            JsonNode answer = op.responseJson();
            String key = op.idempotencyKey();
            String problem = null;
            String paymentId = null;
            switch (op.kind()) {
                case CREATE -> {
                    creates++;
                    paymentId = answer.path("id").asText(null);
                    Snapshot.Payment payment = paymentId == null ? null : payments.get(paymentId);
                    JsonNode request = op.requestJson();
                    if (payment == null) {
                        problem = "create acknowledged " + op.answer().status() + " but payment " + paymentId
                                + " is not in the database";
                    } else if (!payment.bookingId().equals(request.path("bookingId").asText(null))
                            || payment.amount() != request.path("amount").asLong(-1)
                            || !payment.currency().equals(request.path("currency").asText(null))) {
                        problem = "payment " + paymentId + " does not hold the acknowledged request's booking,"
                                + " amount and currency";
                    } else {
                        problem = keyProblem(keys, payment.merchantId(), key, op, paymentId, null);
                    }
                }
                case RETRY -> {
                    retries++;
                    paymentId = op.paymentIdInPath();
                    Snapshot.Payment payment = paymentId == null ? null : payments.get(paymentId);
                    int attempt = answer.path("attempt").asInt(-1);
                    if (payment == null) {
                        problem = "retry of " + paymentId + " acknowledged but the payment is not in the database";
                    } else if (!retryTransitions.contains(paymentId + "\u0000" + key)) {
                        problem = "retry of " + paymentId + " acknowledged but no RETRY transition has source_id "
                                + key;
                    } else if (!attempts.contains(paymentId + "\u0000" + attempt)) {
                        problem = "retry of " + paymentId + " acknowledged attempt " + attempt
                                + ", which payment_attempts does not hold";
                    } else {
                        problem = keyProblem(keys, payment.merchantId(), key, op, paymentId, null);
                    }
                }
                case REFUND -> {
                    refundCount++;
                    paymentId = op.paymentIdInPath();
                    String refundId = answer.path("id").asText(null);
                    Snapshot.Refund refund = refundId == null ? null : refunds.get(refundId);
                    Snapshot.Payment payment = paymentId == null ? null : payments.get(paymentId);
                    if (refund == null || payment == null) {
                        problem = "refund " + refundId + " of " + paymentId
                                + " acknowledged but it is not in the database";
                    } else if (!refund.paymentId().equals(paymentId)
                            || refund.amount() != answer.path("amount").asLong(-1)) {
                        problem = "refund " + refundId + " does not hold the acknowledged payment and amount";
                    } else {
                        problem = keyProblem(keys, payment.merchantId(), key, op, paymentId, refundId);
                    }
                }
                case CAPTURE -> {
                    captures++;
                    paymentId = op.paymentIdInPath();
                    Snapshot.Payment payment = paymentId == null ? null : payments.get(paymentId);
                    if (payment == null) {
                        problem = "capture of " + paymentId + " acknowledged but the payment is not in the database";
                    } else if (!captureTransitions.contains(paymentId + "\u0000" + key)) {
                        problem = "capture of " + paymentId + " acknowledged but no CAPTURE transition has source_id "
                                + key;
                    } else {
                        problem = keyProblem(keys, payment.merchantId(), key, op, paymentId, null);
                    }
                }
                case CANCEL -> {
                    cancels++;
                    paymentId = op.paymentIdInPath();
                    Snapshot.Payment payment = paymentId == null ? null : payments.get(paymentId);
                    if (payment == null) {
                        problem = "cancel of " + paymentId + " acknowledged but the payment is not in the database";
                    } else if (!payment.cancelRequested() && !"CANCELLED".equals(payment.status())) {
                        problem = "cancel of " + paymentId + " acknowledged but the payment is " + payment.status()
                                + " with no cancel recorded";
                    } else {
                        problem = keyProblem(keys, payment.merchantId(), key, op, paymentId, null);
                    }
                }
                default -> {
                }
            }
            if (problem != null) {
                unreplayable.add(op);
                problems.add(problem);
                offending.add(key);
                if (paymentId != null) {
                    offending.add(paymentId);
                }
            }
        }

        // Replays: one per distinct request, compared with every acknowledged answer to it.
        Map<String, List<Operation>> byRequest = new LinkedHashMap<>();
        for (Operation op : acknowledged) {
            if (unreplayable.contains(op)) {
                continue;
            }
            String identity = op.method() + " " + op.path() + "\n" + new TreeMap<>(op.requestHeaders()) + "\n"
                    + op.requestBody();
            byRequest.computeIfAbsent(identity, k -> new ArrayList<>()).add(op);
        }
        int replayed = 0;
        if (!byRequest.isEmpty()) {
            Replayer replayer = new Replayer(context.facts().instanceBaseUrls());
            ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY);
            try {
                List<Future<Replayer.Answer>> answers = new ArrayList<>();
                int n = 0;
                for (List<Operation> same : byRequest.values()) {
                    Operation op = same.get(0);
                    int index = n++;
                    answers.add(pool.submit(() -> replayer.replay(index, op.method(), op.path(),
                            op.requestHeaders(), op.requestBody())));
                }
                int i = 0;
                for (List<Operation> same : byRequest.values()) {
                    Future<Replayer.Answer> future = answers.get(i++);
                    Replayer.Answer replay;
                    try {
                        replay = future.get();
                    } catch (Exception e) {
                        Operation op = same.get(0);
                        problems.add("replay of " + op.method() + " " + op.path() + " failed: " + e.getMessage());
                        offending.add(op.idempotencyKey());
                        continue;
                    }
                    replayed++;
                    for (Operation op : same) {
                        if (replay.status() != op.answer().status()
                                || !replay.body().equals(op.answer().responseBody())
                                || !sameHeader(op, replay, "location") || !sameHeader(op, replay, "etag")) {
                            problems.add("replay of " + op.method() + " " + op.path() + " (key "
                                    + op.idempotencyKey() + ") answered " + replay.status() + " "
                                    + abbreviate(replay.body()) + " (Location " + replay.headers().get("location")
                                    + ", ETag " + replay.headers().get("etag") + "), acknowledged "
                                    + op.answer().status() + " " + abbreviate(op.answer().responseBody()));
                            offending.add(op.idempotencyKey());
                            break;
                        }
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
        offending.remove(null);
        String detail = acknowledged.size() + " acknowledged (" + creates + " creates, " + retries + " retries, "
                + refundCount + " refunds, " + captures + " captures, " + cancels + " cancels), " + replayed
                + " distinct requests replayed"
                + (problems.isEmpty() ? ": every effect found, every replay identical"
                        : "; " + problems.size() + " problems, first: " + problems.get(0));
        return new InvariantResult(name(), problems.isEmpty(), detail, offending);
    }

    /** "payment id NUL source_id" of every transition {@code event} that a client's request made. */
    private static Set<String> apiTransitions(Snapshot db, String event) {
        Set<String> made = new java.util.HashSet<>();
        db.transitions().stream().filter(t -> t.event().equals(event) && "api".equals(t.source()))
                .forEach(t -> made.add(t.paymentId() + "\u0000" + t.sourceId()));
        return made;
    }

    private static String keyProblem(Map<String, Snapshot.IdempotencyKey> keys, String merchantId, String key,
                                     Operation op, String paymentId, String refundId) {
        Snapshot.IdempotencyKey row = keys.get(merchantId + "\u0000" + key);
        if (row == null) {
            return "no idempotency_keys row for merchant " + merchantId + " and key " + key;
        }
        if (!"FINISHED".equals(row.recoveryPoint()) || row.responseStatus() == null
                || row.responseStatus() != op.answer().status().intValue()) {
            return "idempotency key " + key + " is " + row.recoveryPoint() + " with status " + row.responseStatus()
                    + ", acknowledged " + op.answer().status();
        }
        if (!paymentId.equals(row.paymentId()) || (refundId != null && !refundId.equals(row.refundId()))) {
            return "idempotency key " + key + " names payment " + row.paymentId() + " / refund " + row.refundId()
                    + ", acknowledged " + paymentId + (refundId == null ? "" : " / " + refundId);
        }
        return null;
    }

    /** The acknowledged answer's header (when it was recorded) equals the replay's. */
    private static boolean sameHeader(Operation op, Replayer.Answer replay, String name) {
        String acknowledged = Operations.header(op.answer().responseHeaders(), name);
        return acknowledged == null || acknowledged.equals(replay.headers().get(name));
    }

    static String abbreviate(String text) {
        if (text == null) {
            return "null";
        }
        return text.length() <= 120 ? text : text.substring(0, 120) + "…";
    }
}
