package com.payorch.chaos.workload;

import com.payorch.chaos.workload.Requests.Request;
import com.payorch.chaos.workload.WorkloadTargets.Merchant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the clients learnt from the service's answers, shared by all of them: the payments they saw (with the newest
 * status and version seen), the refunds they made, and the acknowledged idempotent requests they may replay.
 */
final class Known {

    static final JsonMapper JSON = new JsonMapper();

    /** A payment as last seen in an answer. */
    static final class Payment {
        final String id;
        final Merchant merchant;
        final String bookingId;
        final long amount;
        final String currency;
        final String paymentMethod;
        final long seenAt = System.currentTimeMillis();
        volatile String status = "PENDING";
        volatile long version;
        volatile @Nullable String connector;
        volatile @Nullable String reference;
        /** The reference of the attempt that was charged, once the payment was seen COMPLETED. */
        volatile @Nullable String chargedReference;
        volatile long sandboxPolledAt;
        /** The version at which every sandbox charge of it was final and its messages queued (-1: not yet). */
        volatile long sandboxSettledAtVersion = -1;
        /** The current attempt and why it failed, as last seen. */
        volatile int attempt = 1;
        volatile @Nullable String failureReason;
        /** Whether the gateways charged its given-up attempt late (nemesis late-success-after-give-up). */
        volatile boolean chargedLate;
        /** The sum of the refunds of it the service acknowledged. */
        volatile long refunded;
        /** {@code automatic} or {@code manual} (a hold), as the service answered. */
        volatile String captureMethod = "automatic";

        boolean manual() {
            return "manual".equals(captureMethod);
        }

        Payment(String id, Merchant merchant, String bookingId, long amount, String currency, String paymentMethod) {
            this.id = id;
            this.merchant = merchant;
            this.bookingId = bookingId;
            this.amount = amount;
            this.currency = currency;
            this.paymentMethod = paymentMethod;
        }
    }

    /** A refund the service acknowledged. */
    record Refund(String id, Payment payment, long amount, String connector, long at) {
    }

    /** An acknowledged create, retry or refund: the request exactly as sent, and the merchant it was for. */
    record Replayable(Request request, Merchant merchant, String idempotencyKey) {
    }

    private final Map<String, Payment> payments = new ConcurrentHashMap<>();
    private final List<Payment> paymentOrder = new ArrayList<>();
    private final Map<String, Refund> refunds = new ConcurrentHashMap<>();
    private final List<Refund> refundOrder = new ArrayList<>();
    private final Map<String, Replayable> replayable = new ConcurrentHashMap<>();
    private final List<Replayable> replayableOrder = new ArrayList<>();

    /** Records (or updates) the payment an answer body shows; null when the body is no payment resource. */
    @Nullable Payment payment(Merchant merchant, String body) {
        JsonNode resource;
        try {
            resource = JSON.readTree(body);
        } catch (RuntimeException e) {
            return null;
        }
        return payment(merchant, resource);
    }

    @Nullable Payment payment(Merchant merchant, JsonNode resource) {
        String id = resource.path("id").asString("");
        if (!id.startsWith("pay_")) {
            return null;
        }
        Payment payment;
        synchronized (this) {
            payment = payments.get(id);
            if (payment == null) {
                payment = new Payment(id, merchant, resource.path("bookingId").asString(""),
                        resource.path("amount").asLong(), resource.path("currency").asString(""),
                        resource.path("paymentMethod").asString(""));
                payments.put(id, payment);
                paymentOrder.add(payment);
            }
        }
        synchronized (payment) {
            long version = resource.path("version").asLong();
            if (version >= payment.version) {
                payment.version = version;
                payment.status = resource.path("status").asString(payment.status);
                payment.connector = resource.path("connector").isString()
                        ? resource.path("connector").asString() : payment.connector;
                payment.attempt = resource.path("attempt").asInt(payment.attempt);
                payment.captureMethod = resource.path("captureMethod").asString(payment.captureMethod);
                payment.failureReason = resource.path("failureReason").isString()
                        ? resource.path("failureReason").asString() : payment.failureReason;
                payment.reference = resource.path("connectorReference").isString()
                        ? resource.path("connectorReference").asString() : payment.reference;
                if ("COMPLETED".equals(payment.status)) {
                    payment.chargedReference = payment.reference;
                }
            }
        }
        return payment;
    }

    @Nullable Payment payment(String id) {
        return payments.get(id);
    }

    /** Records the refund an answer body shows. */
    void refund(Payment payment, String body) {
        JsonNode resource;
        try {
            resource = JSON.readTree(body);
        } catch (RuntimeException e) {
            return;
        }
        String id = resource.path("id").asString("");
        if (!id.startsWith("re_") && !id.startsWith("rf_")) {
            return;
        }
        Refund refund = new Refund(id, payment, resource.path("amount").asLong(),
                resource.path("connector").asString(payment.connector == null ? "" : payment.connector),
                System.currentTimeMillis());
        synchronized (this) {
            if (refunds.putIfAbsent(id, refund) == null) {
                refundOrder.add(refund);
                payment.refunded += refund.amount();
            }
        }
    }

    void replayable(Request request, Merchant merchant, String idempotencyKey) {
        Replayable entry = new Replayable(request, merchant, idempotencyKey);
        synchronized (this) {
            if (replayable.putIfAbsent(merchant.id() + " " + idempotencyKey, entry) == null) {
                replayableOrder.add(entry);
            }
        }
    }

    @Nullable Payment pickPayment(long pick, Predicate<Payment> which) {
        return pick(snapshot(paymentOrder), pick, which);
    }

    @Nullable Replayable pickReplayable(long pick, Predicate<Replayable> which) {
        return pick(snapshot(replayableOrder), pick, which);
    }

    List<Payment> payments() {
        return snapshot(paymentOrder);
    }

    List<Refund> refunds() {
        return snapshot(refundOrder);
    }

    private synchronized <T> List<T> snapshot(List<T> list) {
        return List.copyOf(list);
    }

    private static <T> @Nullable T pick(List<T> all, long pick, Predicate<T> which) {
        List<T> candidates = all.stream().filter(which).toList();
        return candidates.isEmpty() ? null : candidates.get((int) Math.floorMod(pick, (long) candidates.size()));
    }
}
