package com.payorch.console;

import com.payorch.idempotency.IdempotencyKeys;
import com.payorch.idempotency.IdempotentRequest;
import com.payorch.idempotency.KeyAcquisition;
import com.payorch.idempotency.KeyClaim;
import com.payorch.idempotency.RequestFingerprint;
import com.payorch.idempotency.StoredResponse;
import com.payorch.merchantwebhooks.MerchantWebhookTargets;
import com.payorch.merchantwebhooks.WebhookDeliveries;
import com.payorch.outbox.OutboxEndpoint;
import com.payorch.payments.IdempotentPaymentFlow;
import com.payorch.payments.Payment;
import com.payorch.refunds.IdempotentRefundFlow;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.Refusal;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * The console's actions, each through the feature that owns it: retry, capture, cancel and refund through the same
 * idempotent flows as {@code POST /v1/payments/{id}/retry}, {@code /capture}, {@code /cancel} and {@code /refunds}; redelivering a merchant webhook through
 * {@link WebhookDeliveries}; requeueing a dead letter through the outbox's {@link OutboxEndpoint}.
 *
 * <p>Every confirmation form carries an action key generated here; it becomes the idempotency key (in the
 * merchant's key space, prefixed {@code console:<user>:}), so a double submit is answered from the stored result
 * and nothing is done twice. Redeliver and requeue, which have no flow of their own, store their result with the
 * key in the same transaction as the change.
 */
@Component
public class ConsoleActions {

    private static final Logger log = LoggerFactory.getLogger(ConsoleActions.class);
    private static final Pattern ACTION_KEY = Pattern.compile("ca_[0-9a-f]{32}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final IdempotentPaymentFlow paymentFlow;
    private final IdempotentRefundFlow refundFlow;
    private final IdempotencyKeys keys;
    private final WebhookDeliveries deliveries;
    private final MerchantWebhookTargets targets;
    private final OutboxEndpoint outbox;
    private final TransactionalOperator transaction;

    public ConsoleActions(IdempotentPaymentFlow paymentFlow, IdempotentRefundFlow refundFlow, IdempotencyKeys keys,
                          WebhookDeliveries deliveries, MerchantWebhookTargets targets, OutboxEndpoint outbox,
                          TransactionalOperator transaction) {
        this.paymentFlow = paymentFlow;
        this.refundFlow = refundFlow;
        this.keys = keys;
        this.deliveries = deliveries;
        this.targets = targets;
        this.outbox = outbox;
        this.transaction = transaction;
    }

    /** A fresh action key for a confirmation form. */
    public static String newActionKey() {
        byte[] random = new byte[16];
        RANDOM.nextBytes(random);
        return "ca_" + HexFormat.of().formatHex(random);
    }

    public static boolean isActionKey(@Nullable String key) {
        return key != null && ACTION_KEY.matcher(key).matches();
    }

    /** FAILED -> PENDING, a new attempt, submitted: {@link IdempotentPaymentFlow#retry}. */
    public Mono<ActionResult> retry(ConsoleUser user, String merchantId, String paymentId, String actionKey) {
        IdempotentRequest request = request(user, merchantId, actionKey, "/console/payments/" + paymentId + "/retry",
                "");
        return guarded(() -> paymentFlow.retry(request, paymentId, payment -> { },
                        found -> stored(200, "Payment " + found.payment().id() + " retried: attempt "
                                + found.payment().attempt() + " is " + found.payment().status() + ".")),
                user, "retry " + paymentId);
    }

    /** A refund of {@code amount} (null: all that is refundable): {@link IdempotentRefundFlow#create}. */
    public Mono<ActionResult> refund(ConsoleUser user, String merchantId, String paymentId, @Nullable Long amount,
                                     @Nullable String reason, String actionKey) {
        IdempotentRequest request = request(user, merchantId, actionKey, "/console/payments/" + paymentId
                + "/refund", "amount=" + amount + "&reason=" + reason);
        return guarded(() -> refundFlow.create(request, paymentId, amount, reason,
                        refund -> stored(201, "Refund " + refund.id() + " of " + refund.amount() + " "
                                + refund.currency() + " requested: " + refund.status() + ".")),
                user, "refund " + paymentId);
    }

    /**
     * A capture of {@code amount} (null: all that is capturable) of an AUTHORIZED payment, sent with the capture's own
     * connector key: {@link IdempotentPaymentFlow#capture}, as {@code POST /v1/payments/{id}/capture}.
     */
    public Mono<ActionResult> capture(ConsoleUser user, String merchantId, String paymentId, @Nullable Long amount,
                                      String actionKey) {
        IdempotentRequest request = request(user, merchantId, actionKey, "/console/payments/" + paymentId
                + "/capture", "amount=" + amount);
        return guarded(() -> paymentFlow.capture(request, paymentId, amount, payment -> { },
                        found -> captureAnswer(found.payment(), amount != null ? amount : found.payment().amount())),
                user, "capture " + paymentId);
    }

    // A capture the connector refused leaves the payment AUTHORIZED: nothing was taken, so it reads as refused.
    private static StoredResponse captureAnswer(Payment payment, long amount) {
        String what = "Capture of " + amount + " " + payment.currency() + " of payment " + payment.id();
        return switch (payment.status()) {
            case CAPTURING -> stored(200, what + " sent: CAPTURING (waiting for the connector's outcome).");
            case COMPLETED -> stored(200, what + " done: COMPLETED.");
            case AUTHORIZED -> stored(409, what + " failed at the connector"
                    + (payment.failureReason() != null ? " (" + payment.failureReason() + ")" : "")
                    + ": nothing was taken, the payment is AUTHORIZED and may be captured or cancelled.");
            default -> stored(200, what + ": the payment is " + payment.status() + ".");
        };
    }

    /**
     * The hold of an AUTHORIZED payment (or of a manual one not authorised yet) released:
     * {@link IdempotentPaymentFlow#cancel}, as {@code POST /v1/payments/{id}/cancel}.
     */
    public Mono<ActionResult> cancel(ConsoleUser user, String merchantId, String paymentId, @Nullable String reason,
                                     String actionKey) {
        IdempotentRequest request = request(user, merchantId, actionKey, "/console/payments/" + paymentId
                + "/cancel", "reason=" + reason);
        return guarded(() -> paymentFlow.cancel(request, paymentId, reason, payment -> { },
                        found -> stored(200, "Cancel of payment " + found.payment().id() + " sent: "
                                + found.payment().status() + (found.payment().status() == PaymentStatus.CANCELLED
                                ? " (the hold is released)." : " (the release is waiting for the connector)."))),
                user, "cancel " + paymentId);
    }

    /** One more delivery of the event to the merchant's webhook-url, due now. */
    public Mono<ActionResult> redeliver(ConsoleUser user, String merchantId, String eventId, String actionKey) {
        if (targets.of(merchantId).isEmpty()) {
            return Mono.just(ActionResult.refused("Merchant " + merchantId + " has no webhook-url: there is nowhere"
                    + " to deliver event " + eventId + "."));
        }
        IdempotentRequest request = request(user, merchantId, actionKey, "/console/events/" + eventId
                + "/redeliver", "");
        return guarded(() -> once(request, () -> deliveries.redeliver(merchantId, eventId)
                        .map(delivery -> stored(202, "Delivery attempt " + delivery.attempt() + " of event " + eventId
                                + " queued."))),
                user, "redeliver " + eventId);
    }

    /** A dead-lettered event back in the outbox queue, due now, attempts reset. */
    public Mono<ActionResult> requeue(ConsoleUser user, String merchantId, String eventId, String actionKey) {
        IdempotentRequest request = request(user, merchantId, actionKey, "/console/events/" + eventId + "/requeue",
                "");
        return guarded(() -> once(request, () -> outbox.requeue(eventId)
                        .map(answer -> Boolean.TRUE.equals(answer.get("requeued"))
                                ? stored(200, "Event " + eventId + " requeued.")
                                : stored(409, "Event " + eventId + " is not dead-lettered (already requeued?)."))),
                user, "requeue " + eventId);
    }

    /** The work and the stored result in one transaction, under the claimed key; a replay answers the result. */
    private Mono<StoredResponse> once(IdempotentRequest request, Supplier<Mono<StoredResponse>> work) {
        return keys.acquire(request).flatMap(acquisition -> {
            if (acquisition instanceof KeyAcquisition.Replay replay) {
                return Mono.just(replay.response());
            }
            KeyClaim claim = ((KeyAcquisition.Claimed) acquisition).claim();
            return transaction.transactional(Mono.defer(work)
                            .flatMap(stored -> keys.finish(claim, stored).thenReturn(stored)))
                    .onErrorResume(error -> keys.forget(claim).then(Mono.error(error)));
        });
    }

    private Mono<ActionResult> guarded(Supplier<Mono<StoredResponse>> action, ConsoleUser user, String what) {
        return Mono.defer(action)
                .map(stored -> {
                    String message = new String(stored.body(), StandardCharsets.UTF_8);
                    if (stored.status() >= 400) {
                        return ActionResult.refused(message);
                    }
                    if (!stored.replayed()) {
                        log.info("Console user {}: {}: {}", user.name(), what, message);
                    }
                    return stored.replayed() ? ActionResult.alreadyDone(message) : ActionResult.done(message);
                })
                .onErrorResume(Refusal.class, refusal -> Mono.just(ActionResult.refused(refusal.detail())))
                .onErrorResume(OptimisticLockingFailureException.class, changed -> Mono.just(ActionResult.refused(
                        "The payment changed while this was being done, and nothing was done: look at it again.")));
    }

    private static IdempotentRequest request(ConsoleUser user, String merchantId, String actionKey, String path,
                                             String body) {
        if (!isActionKey(actionKey)) {
            throw new IllegalArgumentException("not an action key");
        }
        String key = "console:" + user.name().replaceAll("[^A-Za-z0-9_.-]", "_") + ":" + actionKey;
        return new IdempotentRequest(merchantId, key, "POST", path,
                RequestFingerprint.of("POST", path, body.getBytes(StandardCharsets.UTF_8)));
    }

    private static StoredResponse stored(int status, String message) {
        return new StoredResponse(status, Map.of(), message.getBytes(StandardCharsets.UTF_8), false);
    }
}
