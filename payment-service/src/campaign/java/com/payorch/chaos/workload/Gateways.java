package com.payorch.chaos.workload;

import com.payorch.chaos.workload.Known.Payment;
import com.payorch.chaos.workload.Requests.Answer;
import com.payorch.chaos.workload.Requests.Request;
import com.payorch.chaos.workload.WorkloadTargets.Merchant;
import com.payorch.fakes.FakeAdyen;
import com.payorch.fakes.FakeStripe;
import com.payorch.testsupport.SignedWebhooks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The gateways' side of the campaign, as process {@code psp}: what the PSPs (the fakes) and the sandbox would send
 * to the service's webhook endpoints, each message delivered until one instance acknowledges it (2xx), as a PSP
 * redelivers. It settles the fakes' charges that stay pending ({@code pm_card_processing}): Stripe {@code
 * processing} intents after 1.5 s (three in four succeed, {@link FakeStripe#settle}), Adyen {@code Received}
 * payments by an {@code AUTHORISATION} success (the fake keeps no later outcome). It sends
 * <ul>
 *   <li>Stripe: a {@code payment_intent.*} event for every PaymentIntent the fake charged or that a known payment
 *       failed with, and a {@code refund.updated} event for every refund of a known refund;</li>
 *   <li>Adyen: an {@code AUTHORISATION} notification for every payment the fake processed, a {@code REFUND}
 *       notification (success) for every refund it received (orphaned-charge refunds included);</li>
 *   <li>sandbox: {@code payment.processing} and the outcome for every settled charge of a known payment (ids
 *       {@code msg_<charge>_<status>}, as the sandbox's own), and {@code refund.succeeded}/{@code refund.failed}
 *       for known refunds ({@code pm_card_refund_fails} fails).</li>
 * </ul>
 * The two messages of a charge are queued in random order (an outcome may come before {@code processing}).
 * What the nemesis makes the PSPs do ({@link com.payorch.chaos.world.PspFaults}) is carried out here too: webhooks
 * held during a PSP's outage, given-up attempts charged late, clients' refunds reported failed after they succeeded.
 * Card holders dispute charges: every sandbox payment made with {@code pm_card_disputed} and one in ten other
 * completed automatic payments at the sandbox, Stripe and Adyen get a dispute reported step by step (opened, then
 * won, lost, or lost and reversed; at times the close before the open), recorded in the PSPs' dispute ledger
 * ({@link com.payorch.chaos.world.PspDisputes}) for the checker.
 * Delivered messages are what the clients' webhook steps redeliver (duplicated, reordered, late).
 */
final class Gateways {

    static final String PROCESS = "psp";

    /**
     * A gateway message. {@code webhookId} is the sandbox's {@code webhook-id}; Stripe and Adyen messages carry
     * their ids in the body.
     */
    record Message(String key, String connector, Merchant merchant, String paymentId, String path, String body,
                   @Nullable String webhookId, long order) {

        String operation() {
            return "webhook-" + connector;
        }
    }

    private final WorkloadTargets targets;
    private final Requests requests;
    private final Known known;
    private final Random random;
    private final Map<String, Message> messages = new ConcurrentHashMap<>();
    private final Set<String> undelivered = new LinkedHashSet<>();
    private final List<Message> delivered = new ArrayList<>();
    private final Map<String, Long> firstSeen = new HashMap<>();
    private final Map<String, Long> unresolvedUntil = new HashMap<>();
    private long order;
    private long roundUntil;
    private int resolutions;
    private int rounds;
    /** Client refunds whose success the PSP (Stripe, Adyen) reported: ones a reversal may take back. */
    private final Set<String> reversible = new LinkedHashSet<>();
    /** PaymentIntents and refunds whose final event is queued: not looked at again. */
    private final Set<String> stripeDone = new java.util.HashSet<>();

    /** Whether the round has to stop: out of time, or its thread interrupted (the workload is stopping). */
    private boolean timeUp() {
        return System.nanoTime() - roundUntil > 0 || Thread.currentThread().isInterrupted();
    }

    Gateways(WorkloadTargets targets, Requests requests, Known known, long seed) {
        this.targets = targets;
        this.requests = requests;
        this.known = known;
        this.random = new Random(seed ^ 0x5eed_9a7e_3a75L);
    }

    /**
     * One round: looks for what the gateways have to say and delivers every message not acknowledged yet (once
     * each, to a random instance). With {@code now}, pending charges are settled whatever their age. A round
     * stops early at {@code untilNanos} (System.nanoTime) or when its thread is interrupted; the next one goes on.
     *
     * @return how many messages are still unacknowledged, plus charges still left pending at the fakes
     */
    synchronized int round(boolean now, long untilNanos) {
        roundUntil = untilNanos;
        resolutions = 0;
        long settleAfter = now ? 0 : 1_500;
        int pending = 0;
        // What is queued goes out first: the scans below may use up the round, and a gateway that only looked and
        // never delivered would leave payments PROCESSING for good (the 30-minute run of 1 December did).
        deliver();
        lateSuccesses();
        reverseRefunds();
        pending += stripe(settleAfter);
        pending += adyen(now || rounds++ % 20 == 0);
        sandbox(now ? 0 : 700);
        pending += disputes(now);
        deliver();
        synchronized (undelivered) {
            return pending + undelivered.size();
        }
    }

    /** A delivered message picked with {@code pick}, or null when none was delivered yet. */
    @Nullable Message pickDelivered(long pick) {
        synchronized (delivered) {
            return delivered.isEmpty() ? null : delivered.get((int) Math.floorMod(pick, (long) delivered.size()));
        }
    }

    /** The delivered messages about the same payment and connector, oldest first. */
    List<Message> deliveredAbout(Message message) {
        synchronized (delivered) {
            return delivered.stream().filter(m -> m.paymentId().equals(message.paymentId())
                    && m.connector().equals(message.connector())).toList();
        }
    }

    /** The request that delivers {@code message} now, signed now or {@code ageSeconds} ago. */
    Request request(Message message, int instance, long ageSeconds) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        long at = Instant.now().getEpochSecond() - ageSeconds;
        switch (message.connector()) {
            case "sandbox" -> SignedWebhooks.sign(targets.sandboxWebhookSecret(), message.webhookId(),
                    Instant.ofEpochSecond(at), message.body()).forEach((name, values) -> headers.put(name,
                    values.get(0)));
            case "stripe" -> headers.put("Stripe-Signature",
                    FakeStripe.sign(message.body(), targets.stripeWebhookSecret(), at));
            default -> {
            }
        }
        return new Request(message.operation(), instance, "POST", message.path(), headers, message.body());
    }

    private void deliver() {
        List<String> keys;
        synchronized (undelivered) {
            keys = List.copyOf(undelivered);
        }
        for (String key : keys) {
            if (timeUp()) {
                return;
            }
            Message message = messages.get(key);
            if (targets.pspFaults().webhooksHeld(message.connector())) {
                continue; // a PSP in an outage sends nothing; it catches up when it is back
            }
            Answer answer = requests.send(PROCESS, request(message, random.nextInt(requests.instances()), 0));
            if (answer.ok()) {
                synchronized (undelivered) {
                    undelivered.remove(key);
                }
                synchronized (delivered) {
                    delivered.add(message);
                }
                targets.pspFaults().disputes().acknowledged(key);
                Payment payment = known.payment(message.paymentId());
                if (payment != null && (answer.body().contains("applied") || message.connector().equals("adyen"))) {
                    refresh(payment);
                }
            }
            // Not acknowledged (lost, 5xx, even a 4xx): a PSP redelivers for days; it is sent again next round.
        }
    }

    /** GET the payment again (as {@code psp}), so the clients know its new status. */
    void refresh(Payment payment) {
        Answer answer = requests.send(PROCESS, new Request("read", random.nextInt(requests.instances()), "GET",
                "/v1/payments/" + payment.id, Workload.auth(payment.merchant), null));
        if (answer.ok()) {
            known.payment(payment.merchant, answer.body());
        }
    }

    private void queue(Message message) {
        if (messages.putIfAbsent(message.key(), message) == null) {
            synchronized (undelivered) {
                undelivered.add(message.key());
            }
        }
    }

    private void queueInRandomOrder(List<Message> pair) {
        List<Message> inOrder = new ArrayList<>(pair);
        if (random.nextInt(100) < 30) {
            java.util.Collections.reverse(inOrder);
        }
        inOrder.forEach(this::queue);
    }

    // ---- the PSPs' own faults (nemesis: late-success-after-give-up, refund-reversed)

    /**
     * While a PSP charges given-up attempts late: every payment the clients know at that PSP that FAILED with
     * {@code gateway_unreachable} and whose attempt the PSP holds no charge for is charged now (a request that
     * reached the PSP late); the scans below then send its success, as the PSP would. A few payments that have been
     * open longer than give-up-after are read again each round, to learn of give-ups.
     */
    private void lateSuccesses() {
        int reads = 0;
        for (Payment payment : known.payments()) {
            String connector = payment.connector;
            if (connector == null || !targets.pspFaults().chargesLate(connector) || payment.chargedLate || timeUp()) {
                continue;
            }
            boolean open = payment.status.equals("PENDING") || payment.status.equals("PROCESSING");
            if (open && reads < 5 && System.currentTimeMillis() - payment.seenAt
                    > com.payorch.chaos.world.World.GIVE_UP_AFTER.toMillis()) {
                reads++;
                refresh(payment);
            }
            if (!payment.status.equals("FAILED") || !"gateway_unreachable".equals(payment.failureReason)
                    || chargedAtPsp(connector, payment.id, payment.attempt)) {
                continue;
            }
            payment.chargedLate = true;
            try {
                String reference = targets.pspFaults().chargeLate(connector, payment.id, payment.attempt,
                        payment.amount, payment.currency);
                targets.pspFaults().note("late success " + connector + " " + payment.id + "#" + payment.attempt
                        + " " + reference);
            } catch (RuntimeException e) {
                targets.pspFaults().note("late success " + connector + " " + payment.id + " failed: " + e);
            }
        }
    }

    private boolean chargedAtPsp(String connector, String paymentId, int attempt) {
        if (connector.equals("stripe")) {
            String attemptNo = Integer.toString(attempt);
            return targets.stripe().intents().stream().anyMatch(i -> paymentId.equals(metadata(i, "payment_id"))
                    && attemptNo.equals(metadata(i, "attempt")));
        }
        if (connector.equals("adyen")) {
            String key = attempt == 1 ? paymentId : paymentId + "-attempt-" + attempt;
            return targets.adyen().paymentsFor(paymentId).stream()
                    .anyMatch(p -> key.equals(p.get("idempotencyKey")));
        }
        return true; // the sandbox is the service's own: nothing to charge late
    }

    /**
     * While refunds are to be reversed: a client's refund at Stripe or Adyen whose success was delivered is reported
     * failed afterwards (Stripe {@code refund.failed} with the refund {@code failed}; Adyen {@code REFUND_FAILED}),
     * once each. The checker's facts read these messages from the history (the fakes' ledgers still show them).
     */
    private void reverseRefunds() {
        for (Known.Refund refund : known.refunds()) {
            Payment payment = refund.payment();
            if (payment.chargedReference == null || !reversible.contains(refund.id())
                    || targets.pspFaults().webhooksHeld(refund.connector())) {
                continue;
            }
            if (!targets.pspFaults().takeReversal()) {
                return;
            }
            reversible.remove(refund.id());
            Message reversal = refund.connector().equals("stripe") ? stripeReversal(refund) : adyenReversal(refund);
            if (reversal == null) {
                continue;
            }
            queue(reversal);
            targets.pspFaults().note("refund reversed " + refund.connector() + " " + refund.id() + " of "
                    + payment.id);
        }
    }

    private @Nullable Message stripeReversal(Known.Refund refund) {
        for (Map<String, Object> stripeRefund : targets.stripe().refundsOf(refund.payment().chargedReference)) {
            if (refund.id().equals(metadata(stripeRefund, "refund_id"))
                    && "succeeded".equals(stripeRefund.get("status"))) {
                Map<String, Object> failed = new LinkedHashMap<>(stripeRefund);
                failed.put("status", "failed");
                failed.put("failure_reason", "expired_or_canceled_card");
                String eventId = "evt_" + stripeRefund.get("id").toString().substring(3) + "reversed";
                return new Message("stripe:" + stripeRefund.get("id") + ":reversed", "stripe",
                        refund.payment().merchant, refund.payment().id,
                        "/v1/webhooks/stripe/" + refund.payment().merchant.id(),
                        FakeStripe.event(eventId, "refund.failed", failed, FakeStripe.API_VERSION), null, order++);
            }
        }
        return null;
    }

    private @Nullable Message adyenReversal(Known.Refund refund) {
        for (Map<String, Object> adyenRefund : targets.adyen().givenBack(refund.payment().chargedReference)) {
            if (refund.id().equals(String.valueOf(adyenRefund.get("reference")))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> amount = (Map<String, Object>) adyenRefund.get("amount");
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("eventCode", "REFUND_FAILED");
                item.put("pspReference", String.valueOf(adyenRefund.get("pspReference")));
                item.put("originalReference", refund.payment().chargedReference);
                item.put("merchantReference", refund.id());
                item.put("success", true);
                item.put("value", ((Number) amount.get("value")).longValue());
                item.put("currency", amount.get("currency"));
                return adyenMessage("adyen:" + adyenRefund.get("pspReference") + ":REFUND_FAILED",
                        refund.payment().merchant, refund.payment().id, item);
            }
        }
        return null;
    }

    // ---- Stripe

    private int stripe(long settleAfter) {
        FakeStripe stripe = targets.stripe();
        if (stripe == null || targets.stripeWebhookSecret() == null) {
            return 0;
        }
        int pending = 0;
        long now = System.currentTimeMillis();
        for (String intentId : stripe.chargedIntents()) {
            if (stripeDone.contains(intentId)) {
                continue;
            }
            if (timeUp()) {
                return pending + 1;
            }
            Map<String, Object> intent = stripe.intent(intentId);
            String status = String.valueOf(intent.get("status"));
            String paymentId = metadata(intent, "payment_id");
            if (paymentId == null || messages.containsKey(stripeKey(intentId, outcomeType(status)))) {
                if (!status.equals("processing")) {
                    stripeDone.add(intentId);
                }
                continue;
            }
            Merchant merchant = merchantOf(paymentId, "stripe");
            if (merchant == null) {
                pending++;
                continue;
            }
            if (status.equals("processing")) {
                long seen = firstSeen.computeIfAbsent(intentId, k -> now);
                if (now - seen < settleAfter) {
                    pending++;
                    continue;
                }
                Message processing = stripeMessage(merchant, paymentId, intentId, "payment_intent.processing",
                        intent);
                Map<String, Object> settled = stripe.settle(intentId,
                        random.nextInt(100) < 75 ? "succeeded" : "requires_payment_method");
                String type = outcomeType(String.valueOf(settled.get("status")));
                queueInRandomOrder(List.of(processing, stripeMessage(merchant, paymentId, intentId, type, settled)));
            } else {
                queue(stripeMessage(merchant, paymentId, intentId, outcomeType(status), intent));
            }
        }
        for (Payment payment : known.payments()) {
            if ("stripe".equals(payment.connector) && "FAILED".equals(payment.status) && payment.reference != null
                    && payment.reference.startsWith("pi_")
                    && !messages.containsKey(stripeKey(payment.reference, "payment_intent.payment_failed"))) {
                Map<String, Object> intent;
                try {
                    intent = stripe.intent(payment.reference);
                } catch (RuntimeException e) {
                    continue;
                }
                if ("requires_payment_method".equals(intent.get("status"))) {
                    queue(stripeMessage(payment.merchant, payment.id, payment.reference,
                            "payment_intent.payment_failed", intent));
                }
            }
        }
        for (Known.Refund refund : known.refunds()) {
            if (!"stripe".equals(refund.connector()) || refund.payment().chargedReference == null
                    || stripeDone.contains(refund.id())) {
                continue;
            }
            for (Map<String, Object> stripeRefund : stripe.refundsOf(refund.payment().chargedReference)) {
                if (refund.id().equals(metadata(stripeRefund, "refund_id"))) {
                    String key = "stripe:" + stripeRefund.get("id") + ":" + stripeRefund.get("status");
                    if (!"pending".equals(stripeRefund.get("status"))) {
                        stripeDone.add(refund.id());
                    }
                    if (!messages.containsKey(key)) {
                        String eventId = "evt_" + stripeRefund.get("id").toString().substring(3)
                                + stripeRefund.get("status");
                        queue(new Message(key, "stripe", refund.payment().merchant, refund.payment().id,
                                "/v1/webhooks/stripe/" + refund.payment().merchant.id(),
                                FakeStripe.event(eventId, "refund.updated", stripeRefund, FakeStripe.API_VERSION),
                                null, order++));
                        if ("succeeded".equals(stripeRefund.get("status"))) {
                            reversible.add(refund.id());
                        }
                    }
                }
            }
        }
        return pending;
    }

    private Message stripeMessage(Merchant merchant, String paymentId, String intentId, String type,
                                  Map<String, Object> intent) {
        String suffix = switch (type) {
            case "payment_intent.processing" -> "P";
            case "payment_intent.succeeded" -> "S";
            default -> "F";
        };
        String eventId = "evt_" + intentId.substring(3) + suffix;
        return new Message(stripeKey(intentId, type), "stripe", merchant, paymentId,
                "/v1/webhooks/stripe/" + merchant.id(), FakeStripe.event(eventId, type, intent,
                FakeStripe.API_VERSION), null, order++);
    }

    private static String stripeKey(String intentId, String type) {
        return "stripe:" + intentId + ":" + type;
    }

    private static String outcomeType(String status) {
        return switch (status) {
            case "succeeded" -> "payment_intent.succeeded";
            case "processing" -> "payment_intent.processing";
            default -> "payment_intent.payment_failed";
        };
    }

    // ---- Adyen

    private final List<Map<String, Object>> adyenCancels = new java.util.concurrent.CopyOnWriteArrayList<>();

    private int adyen(boolean fullScan) {
        FakeAdyen adyen = targets.adyen();
        if (adyen == null || targets.adyenHmacKey() == null) {
            return 0;
        }
        int pending = 0;
        // Adyen's answers to the service's cancels by reference (give-up without a look-up): TECHNICAL_CANCEL, as
        // the fake queued it; kept until the payment's merchant is known.
        takeAdyenNotifications(adyen);
        for (Map<String, Object> item : List.copyOf(adyenCancels)) {
            String paymentId = String.valueOf(item.get("merchantReference"));
            Merchant merchant = merchantOf(paymentId, "adyen");
            if (merchant == null) {
                pending++;
                continue;
            }
            adyenCancels.remove(item);
            queue(adyenMessage("adyen:" + item.get("pspReference") + ":TECHNICAL_CANCEL", merchant, paymentId,
                    item));
        }
        for (Map<String, Object> payment : adyen.payments()) {
            if (timeUp()) {
                return pending + 1;
            }
            String psp = String.valueOf(payment.get("pspReference"));
            String paymentId = String.valueOf(payment.get("reference"));
            Merchant merchant = null;
            String key = "adyen:" + psp + ":AUTHORISATION";
            if (!messages.containsKey(key)) {
                merchant = merchantOf(paymentId, "adyen");
                if (merchant == null) {
                    pending++;
                    continue;
                }
                // `Received` (pm_card_processing) is authorised by its notification: the fake records no later
                // outcome, so "authorised" keeps its ledger (a processed payment that is not refused) the truth.
                String resultCode = String.valueOf(payment.get("resultCode"));
                boolean success = "Received".equals(resultCode) || "Pending".equals(resultCode)
                        // decided now, unless the service's cancel by reference cancelled it first
                        ? "captured".equals(adyen.settleReceived(psp, true))
                        : !"Refused".equals(resultCode);
                @SuppressWarnings("unchecked")
                Map<String, Object> amount = (Map<String, Object>) payment.get("amount");
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("pspReference", psp);
                item.put("merchantReference", paymentId);
                item.put("success", success);
                item.put("value", ((Number) amount.get("value")).longValue());
                item.put("currency", amount.get("currency"));
                item.put("reason", success ? "" : "Refused");
                // Adyen returns the /payments metadata (the attempt) as additionalData.metadata.<key>.
                item.put("additionalData", adyenMetadata(payment));
                queue(adyenMessage(key, merchant, paymentId, item));
            }
            // Refunds of payments the clients refunded; all payments' (orphaned-charge refunds) every 20th round.
            Payment knownPayment = known.payment(paymentId);
            boolean mayHaveRefunds = fullScan || knownPayment != null && knownPayment.refunded > 0;
            if (!mayHaveRefunds || "Refused".equals(String.valueOf(payment.get("resultCode")))) {
                continue;
            }
            for (Map<String, Object> refund : adyen.givenBack(psp)) {
                String refundPsp = String.valueOf(refund.get("pspReference"));
                String refundKey = "adyen:" + refundPsp + ":REFUND";
                if (messages.containsKey(refundKey)) {
                    continue;
                }
                merchant = merchant != null ? merchant : merchantOf(paymentId, "adyen");
                if (merchant == null) {
                    pending++;
                    continue;
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> amount = (Map<String, Object>) refund.get("amount");
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("eventCode", "REFUND");
                item.put("pspReference", refundPsp);
                item.put("originalReference", psp);
                item.put("merchantReference", String.valueOf(refund.get("reference")));
                item.put("success", true);
                item.put("value", ((Number) amount.get("value")).longValue());
                item.put("currency", amount.get("currency"));
                queue(adyenMessage(refundKey, merchant, paymentId, item));
                reversible.add(String.valueOf(refund.get("reference"))); // only clients' refunds are ever reversed
            }
        }
        return pending;
    }

    /**
     * What the Adyen fake has to send: TECHNICAL_CANCELs are kept for {@link #adyen}; dispute items are answered
     * (the items {@link #disputes} just made). Others (CANCEL_OR_REFUND) the campaign does not send.
     */
    private List<Map<String, Object>> takeAdyenNotifications(FakeAdyen adyen) {
        List<Map<String, Object>> disputeItems = new ArrayList<>();
        for (Map<String, Object> item : adyen.takeNotifications()) {
            String code = String.valueOf(item.get("eventCode"));
            if (code.equals("TECHNICAL_CANCEL")) {
                adyenCancels.add(item);
            } else if (ADYEN_DISPUTE_STATUS.containsKey(code)) {
                disputeItems.add(item);
            }
        }
        return disputeItems;
    }

    private Message adyenMessage(String key, Merchant merchant, String paymentId, Map<String, Object> item) {
        String body = FakeAdyen.notification(targets.adyenMerchantAccount(), targets.adyenHmacKey(), List.of(item));
        return new Message(key, "adyen", merchant, paymentId, "/v1/webhooks/adyen/" + merchant.id(), body, null,
                order++);
    }

    // ---- sandbox

    private void sandbox(long settleAfter) {
        long now = System.currentTimeMillis();
        for (Payment payment : known.payments()) {
            // A hold's charge moves on after it was authorised (captured, failed to capture, released).
            boolean open = payment.status.equals("PENDING") || payment.status.equals("PROCESSING")
                    || payment.manual() && !payment.status.equals("FAILED");
            if (!open || !"sandbox".equals(payment.connector) || now - payment.seenAt < settleAfter
                    || now - payment.sandboxPolledAt < 1_000 || payment.sandboxSettledAtVersion == payment.version) {
                continue;
            }
            if (timeUp()) {
                return;
            }
            payment.sandboxPolledAt = now;
            Answer answer = requests.send(PROCESS, new Request("read", random.nextInt(requests.instances()), "GET",
                    "/v1/sandbox/charges?paymentId=" + payment.id, Workload.auth(payment.merchant), null));
            if (!answer.ok()) {
                continue;
            }
            long version = payment.version;
            boolean allFinal = true;
            for (JsonNode charge : Known.JSON.readTree(answer.body()).path("data")) {
                String status = charge.path("status").asString("");
                if ("manual".equals(charge.path("captureMethod").asString(""))) {
                    allFinal &= hold(payment, charge, status);
                    continue;
                }
                if (!status.equals("succeeded") && !status.equals("failed")) {
                    allFinal = false;
                    continue;
                }
                String chargeId = charge.path("id").asString("");
                if (messages.containsKey("msg_" + chargeId + "_" + status)) {
                    continue;
                }
                Map<String, Object> data = new LinkedHashMap<>();
                data.put("paymentId", payment.id);
                data.put("chargeId", chargeId);
                data.put("amount", charge.path("amount").asLong(0));
                data.put("currency", charge.path("currency").asString(""));
                Message processing = sandboxMessage(payment, "msg_" + chargeId + "_processing",
                        "payment.processing", data);
                if (status.equals("failed")) {
                    data = new LinkedHashMap<>(data);
                    data.put("failureReason", charge.path("failureReason").asString("card_declined"));
                }
                queueInRandomOrder(List.of(processing, sandboxMessage(payment, "msg_" + chargeId + "_" + status,
                        "payment." + status, data)));
            }
            if (allFinal) {
                // Nothing more to learn from the sandbox until the payment changes (a retry charges again): polling
                // every settled payment each second crowded out the deliveries in long runs.
                payment.sandboxSettledAtVersion = version;
            }
        }
        for (Known.Refund refund : known.refunds()) {
            Payment payment = refund.payment();
            if (!"sandbox".equals(refund.connector()) || now - refund.at() < settleAfter
                    || payment.chargedReference == null) {
                continue;
            }
            boolean fails = payment.paymentMethod.startsWith("pm_card_refund_fails");
            String outcome = fails ? "failed" : "succeeded";
            String id = "msg_wl_" + refund.id() + "_" + outcome;
            if (messages.containsKey(id)) {
                continue;
            }
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("refundId", refund.id());
            data.put("paymentId", payment.id);
            data.put("chargeId", payment.chargedReference);
            data.put("amount", refund.amount());
            data.put("currency", payment.currency);
            if (fails) {
                data.put("failureReason", "refund_declined");
            }
            queue(sandboxMessage(payment, id, "refund." + outcome, data));
        }
    }

    /**
     * The sandbox's webhooks of a hold's charge, as the sandbox names them: {@code payment.processing} and
     * {@code payment.authorized} once it was authorised (in random order), then {@code payment.captured},
     * {@code payment.capture_failed} (one per capture that failed) or {@code payment.cancelled}. Answers whether the
     * charge is final (captured, released or declined).
     */
    private boolean hold(Payment payment, JsonNode charge, String status) {
        String chargeId = charge.path("id").asString("");
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("paymentId", payment.id);
        data.put("chargeId", chargeId);
        data.put("amount", charge.path("amount").asLong(0));
        data.put("currency", charge.path("currency").asString(""));
        if (status.equals("failed")) {
            if (!messages.containsKey("msg_" + chargeId + "_failed")) {
                Map<String, Object> failed = new LinkedHashMap<>(data);
                failed.put("failureReason", charge.path("failureReason").asString("card_declined"));
                queueInRandomOrder(List.of(sandboxMessage(payment, "msg_" + chargeId + "_processing",
                        "payment.processing", data), sandboxMessage(payment, "msg_" + chargeId + "_failed",
                        "payment.failed", failed)));
            }
            return true;
        }
        if (status.equals("processing")) {
            return false;
        }
        boolean authorised = !status.equals("cancelled") || charge.path("captures").asInt(0) > 0;
        if (authorised && !messages.containsKey("msg_" + chargeId + "_authorized")) {
            queueInRandomOrder(List.of(sandboxMessage(payment, "msg_" + chargeId + "_processing",
                    "payment.processing", data), sandboxMessage(payment, "msg_" + chargeId + "_authorized",
                    "payment.authorized", data)));
        }
        switch (status) {
            case "succeeded" -> {
                Map<String, Object> captured = new LinkedHashMap<>(data);
                captured.put("amountCaptured", charge.path("amountCaptured").asLong(0));
                queueOnce(sandboxMessage(payment, "msg_" + chargeId + "_captured", "payment.captured", captured));
                return true;
            }
            case "capture_failed" -> {
                Map<String, Object> failed = new LinkedHashMap<>(data);
                failed.put("failureReason", charge.path("failureReason").asString("capture_declined"));
                queueOnce(sandboxMessage(payment, "msg_" + chargeId + "_capture_failed_"
                        + charge.path("captures").asInt(0), "payment.capture_failed", failed));
                return false;
            }
            case "cancelled" -> {
                queueOnce(sandboxMessage(payment, "msg_" + chargeId + "_cancelled", "payment.cancelled", data));
                return true;
            }
            default -> {
                return false; // authorized, capturing: the client captures or cancels later
            }
        }
    }

    private void queueOnce(Message message) {
        if (!messages.containsKey(message.key())) {
            queue(message);
        }
    }

    private Message sandboxMessage(Payment payment, String webhookId, String type, Map<String, Object> data) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("data", data);
        return new Message(webhookId, "sandbox", payment.merchant, payment.id, "/v1/webhooks/sandbox",
                Known.JSON.writeValueAsString(body), webhookId, order++);
    }

    // ---- disputes (issue 25)

    /** Of the completed automatic payments not made with {@code pm_card_disputed}, the share (percent) disputed. */
    static final int DISPUTE_SHARE = 10;
    private static final Set<String> DISPUTABLE = Set.of("sandbox", "stripe", "adyen");
    /** The dispute status each Adyen dispute notification reports, as the service maps them (AdyenWebhooks). */
    private static final Map<String, String> ADYEN_DISPUTE_STATUS = Map.of(
            "NOTIFICATION_OF_CHARGEBACK", "OPEN", "REQUEST_FOR_INFORMATION", "OPEN", "CHARGEBACK", "LOST",
            "SECOND_CHARGEBACK", "LOST", "PREARBITRATION_LOST", "LOST", "CHARGEBACK_REVERSED", "WON",
            "PREARBITRATION_WON", "WON");

    /** A dispute being reported: the PSP's steps still to come ({@code opened}/{@code open}, {@code won}, ...). */
    private static final class Disputing {
        final Payment payment;
        final String connector;
        final long amount;
        final java.util.ArrayDeque<String> steps;
        final List<String> keys = new ArrayList<>();
        @Nullable String reference;
        long nextAt;
        int reported;

        Disputing(Payment payment, long amount, List<String> steps, long nextAt) {
            this.payment = payment;
            this.connector = payment.connector;
            this.amount = amount;
            this.steps = new java.util.ArrayDeque<>(steps);
            this.nextAt = nextAt;
        }
    }

    private final Set<String> disputeConsidered = new java.util.HashSet<>();
    private final List<Disputing> disputing = new ArrayList<>();

    /**
     * Opens disputes of payments seen COMPLETED (not while the gateways only settle what is left: {@code now}) and
     * reports each open dispute's next step once its earlier reports were acknowledged. Answers how many disputes
     * still have steps to report.
     */
    private int disputes(boolean now) {
        long at = System.currentTimeMillis();
        if (!now) {
            for (Payment payment : known.payments()) {
                if (!"COMPLETED".equals(payment.status) || payment.manual() || payment.chargedReference == null
                        || payment.connector == null || !DISPUTABLE.contains(payment.connector)
                        || !disputeConsidered.add(payment.id)) {
                    continue;
                }
                boolean always = payment.paymentMethod.equals("pm_card_disputed");
                if (always || random.nextInt(100) < DISPUTE_SHARE) {
                    // pm_card_disputed: the sandbox disputes the whole charge itself too (same webhook ids)
                    long amount = always || random.nextInt(100) < 60 ? payment.amount
                            : Math.max(1, payment.amount * (1 + random.nextInt(99)) / 100);
                    disputing.add(new Disputing(payment, amount, disputePlan(payment.connector, always),
                            at + 300 + random.nextInt(2_000)));
                }
            }
        }
        int left = 0;
        for (Disputing dispute : disputing) {
            if (dispute.steps.isEmpty()) {
                continue;
            }
            left++;
            if (timeUp() || (!now && at < dispute.nextAt) || !disputeAcknowledged(dispute)) {
                continue;
            }
            // At times the close comes before the open (the service must create it closed).
            boolean burst = dispute.reported == 0 && dispute.steps.size() > 1 && random.nextInt(100) < 30;
            List<Message> reports = new ArrayList<>();
            try {
                reports.addAll(reportStep(dispute));
                if (burst) {
                    reports.addAll(reportStep(dispute));
                }
            } catch (RuntimeException e) {
                dispute.steps.clear(); // a fake that cannot dispute this charge: what was reported still goes out
                targets.pspFaults().note("dispute of " + dispute.payment.id + " not reported further: " + e);
            }
            queueInRandomOrder(reports);
            dispute.nextAt = at + 300 + random.nextInt(2_000);
        }
        return left;
    }

    private List<String> disputePlan(String connector, boolean alwaysLost) {
        int roll = random.nextInt(100);
        if (connector.equals("adyen")) {
            return roll < 30 ? List.of("NOTIFICATION_OF_CHARGEBACK", "CHARGEBACK")
                    : roll < 50 ? List.of("NOTIFICATION_OF_CHARGEBACK", "CHARGEBACK", "CHARGEBACK_REVERSED")
                    : roll < 65 ? List.of("CHARGEBACK", "CHARGEBACK_REVERSED", "SECOND_CHARGEBACK")
                    : roll < 80 ? List.of("REQUEST_FOR_INFORMATION", "CHARGEBACK", "PREARBITRATION_WON")
                    : roll < 90 ? List.of("NOTIFICATION_OF_CHARGEBACK") : List.of("CHARGEBACK");
        }
        String open = connector.equals("stripe") ? "open" : "opened";
        if (alwaysLost) {
            return List.of(open, "lost"); // as the sandbox's own pm_card_disputed
        }
        return roll < 40 ? List.of(open, "lost") : roll < 70 ? List.of(open, "won")
                : roll < 90 ? List.of(open, "lost", "won") : List.of(open);
    }

    private boolean disputeAcknowledged(Disputing dispute) {
        synchronized (undelivered) {
            return dispute.keys.stream().noneMatch(undelivered::contains);
        }
    }

    /** Has the PSP take the dispute's next step: its messages (not queued yet), recorded in the PSPs' ledger. */
    private List<Message> reportStep(Disputing dispute) {
        String step = dispute.steps.poll();
        Payment payment = dispute.payment;
        List<Message> out = new ArrayList<>();
        String status;
        switch (dispute.connector) {
            case "stripe" -> {
                FakeStripe stripe = targets.stripe();
                Map<String, Object> disputed = step.equals("open")
                        ? stripe.dispute(payment.chargedReference, dispute.amount, "fraudulent")
                        : stripe.closeDispute(dispute.reference, step);
                dispute.reference = String.valueOf(disputed.get("id"));
                for (FakeStripe.SentEvent event : stripe.disputeEventsOf(dispute.reference)) {
                    String key = "stripe:" + event.id();
                    if (!messages.containsKey(key) && out.stream().noneMatch(m -> m.key().equals(key))) {
                        out.add(new Message(key, "stripe", payment.merchant, payment.id,
                                "/v1/webhooks/stripe/" + payment.merchant.id(), event.payload(), null, order++));
                    }
                }
                status = step.equals("open") ? "OPEN" : step.toUpperCase(java.util.Locale.ROOT);
            }
            case "adyen" -> {
                FakeAdyen adyen = targets.adyen();
                adyen.chargeback(payment.chargedReference, step, dispute.amount, "10.4");
                dispute.reference = payment.chargedReference;
                for (Map<String, Object> item : takeAdyenNotifications(adyen)) {
                    out.add(adyenMessage("adyen:" + item.get("pspReference") + ":" + item.get("eventCode"),
                            payment.merchant, payment.id, item));
                }
                status = ADYEN_DISPUTE_STATUS.get(step);
            }
            default -> {
                String chargeId = payment.chargedReference;
                dispute.reference = chargeId + "-dispute";
                Map<String, Object> data = new LinkedHashMap<>();
                data.put("paymentId", payment.id);
                data.put("chargeId", chargeId);
                data.put("disputeId", dispute.reference);
                data.put("amount", dispute.amount);
                data.put("currency", payment.currency);
                data.put("reason", "fraudulent");
                data.put("evidenceDueBy", Instant.now().plus(java.time.Duration.ofDays(7)).toString());
                out.add(sandboxMessage(payment, "msg_" + chargeId + "_dispute_" + step,
                        "dispute." + step, data));
                status = step.equals("opened") ? "OPEN" : step.toUpperCase(java.util.Locale.ROOT);
            }
        }
        dispute.reported++;
        List<String> keys = out.stream().map(Message::key).toList();
        dispute.keys.addAll(keys);
        targets.pspFaults().disputes().reported(dispute.connector, dispute.reference, payment.id, dispute.amount,
                status, keys);
        targets.pspFaults().note("dispute " + dispute.connector + " " + dispute.reference + " of " + payment.id
                + " " + step);
        return out;
    }

    // ---- whose payment

    /**
     * The merchant of a payment the clients may not know (its create was lost, or recovery resubmitted it): asked
     * of the service with each merchant's key whose route has the connector (as {@code psp} reads).
     */
    private @Nullable Merchant merchantOf(String paymentId, String connector) {
        Payment payment = known.payment(paymentId);
        if (payment != null) {
            return payment.merchant;
        }
        long now = System.currentTimeMillis();
        // At most a few look-ups a round: with instances down or frozen each one may cost a client time-out.
        if (unresolvedUntil.getOrDefault(paymentId, 0L) > now || resolutions >= 8 || timeUp()) {
            return null;
        }
        resolutions++;
        for (Merchant merchant : targets.merchants()) {
            if (!merchant.routing().contains(connector)) {
                continue;
            }
            Answer answer = requests.send(PROCESS, new Request("read", random.nextInt(requests.instances()), "GET",
                    "/v1/payments/" + paymentId, Workload.auth(merchant), null));
            if (answer.ok()) {
                known.payment(merchant, answer.body());
                return merchant;
            }
        }
        unresolvedUntil.put(paymentId, now + 2_000);
        return null;
    }

    private static @Nullable String metadata(Map<String, Object> object, String key) {
        Object metadata = object.get("metadata");
        if (metadata instanceof Map<?, ?> map && map.get(key) != null) {
            return String.valueOf(map.get(key));
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> adyenMetadata(Map<String, Object> payment) {
        Map<String, String> additional = new LinkedHashMap<>();
        Object metadata = payment.get("metadata");
        if (metadata instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).forEach((key, value) -> additional.put("metadata." + key, String.valueOf(value)));
        }
        return additional;
    }
}
