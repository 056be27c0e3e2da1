package com.payorch.connectors.sandbox;

import com.payorch.connectors.sandbox.SandboxWebhookBacklog.Outcome;
import com.payorch.connectors.sandbox.SandboxWebhookBacklog.Leased;
import com.payorch.support.Timestamps;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * With `webhooks: auto`, delivers the webhooks of settled charges: `payment.processing`, then the outcome (or the
 * other way round with `reverse-order`), each twice at once with `deliver-twice`; of a hold's later states
 * (`payment.captured`, `payment.capture_failed`, `payment.cancelled`); and of settled refunds:
 * `refund.succeeded` or `refund.failed`; after a `pm_card_disputed` charge's success, its dispute: `dispute.opened`
 * then `dispute.lost` (always after the charge's own webhooks, even with `reverse-order`). The poll only leases charges and
 * starts their deliveries, so one slow receiver does not hold up the poll.
 */
@Component
class SandboxWebhookDispatcher {

    private static final int MAX_CHARGES_IN_FLIGHT = 16;
    private static final Logger log = LoggerFactory.getLogger(SandboxWebhookDispatcher.class);

    private final SandboxWebhookBacklog backlog;
    private final SandboxWebhookSender sender;
    private final SandboxWebhookTarget target;
    private final SandboxDeliveryOptions options;
    private final SandboxGatewayProperties properties;
    private final Clock clock;
    private final AtomicInteger inFlight = new AtomicInteger();

    SandboxWebhookDispatcher(SandboxWebhookBacklog backlog, SandboxWebhookSender sender, SandboxWebhookTarget target,
                             SandboxDeliveryOptions options, SandboxGatewayProperties properties, Clock clock) {
        this.clock = clock;
        this.backlog = backlog;
        this.sender = sender;
        this.target = target;
        this.options = options;
        this.properties = properties;
    }

    /** One poll ({@link SandboxJobs}, every `poll-interval`): leases due charges and starts their deliveries. */
    public Mono<Void> startDueDeliveries() {
        return Mono.defer(this::startDeliveriesOnce);
    }

    private Mono<Void> startDeliveriesOnce() {
        int free = MAX_CHARGES_IN_FLIGHT - inFlight.get();
        if (properties.webhooks() != WebhookMode.AUTO || free <= 0) {
            return Mono.empty();
        }
        return Mono.justOrEmpty(target.uri())
                .flatMapMany(uri -> backlog.lease(free, lease()).doOnNext(charge -> start(charge, uri))
                        .thenMany(Flux.defer(() -> {
                            int left = MAX_CHARGES_IN_FLIGHT - inFlight.get();
                            return left <= 0 ? Flux.empty()
                                    : backlog.leaseRefunds(left, lease()).doOnNext(refund -> start(refund, uri));
                        })))
                .then()
                .onErrorResume(e -> {
                    log.warn("Sandbox webhook poll failed; the next run tries again: {}", e.toString());
                    return Mono.empty();
                });
    }

    private void start(Leased leased, URI uri) {
        SandboxCharge charge = leased.charge();
        inFlight.incrementAndGet();
        Mono.defer(() -> deliver(leased, uri))
                .flatMap(outcome -> backlog.finish(charge, outcome))
                .doFinally(signal -> inFlight.decrementAndGet())
                .subscribe(null, e -> log.warn("Sandbox webhooks for payment {} not recorded as done ({}); they are "
                        + "sent again when the lease runs out", charge.paymentId(), e.toString()));
    }

    /** A settled refund's one webhook (twice at once with `deliver-twice`). */
    private void start(SandboxRefund refund, URI uri) {
        inFlight.incrementAndGet();
        SandboxWebhook webhook = SandboxWebhook.forSettledRefund(refund);
        int copies = options.deliverTwice() ? 2 : 1;
        Flux.range(0, copies).flatMap(copy -> sender.send(webhook, uri))
                .reduce(true, (allSoFar, delivered) -> allSoFar && delivered)
                .map(all -> all ? Outcome.DELIVERED : Outcome.GAVE_UP)
                .flatMap(outcome -> backlog.finishRefund(refund.id(), outcome))
                .doFinally(signal -> inFlight.decrementAndGet())
                .subscribe(null, e -> log.warn("Sandbox webhook for refund {} not recorded as done ({}); it is sent"
                        + " again when the lease runs out", refund.refundId(), e.toString()));
    }

    private Mono<Outcome> deliver(Leased leased, URI uri) {
        SandboxCharge charge = leased.charge();
        List<SandboxWebhook> webhooks = SandboxWebhook.forSettledCharge(charge);
        List<SandboxWebhook> inOrder = new java.util.ArrayList<>(webhooks);
        if (options.reverseOrder()) {
            java.util.Collections.reverse(inOrder);
        }
        // A dispute follows the charge's success; reversing it too would only show the pipeline a dispute lost first.
        inOrder.addAll(SandboxWebhook.disputesOf(charge, leased.paymentMethod(), Timestamps.now(clock)));
        int copies = options.deliverTwice() ? 2 : 1;
        return Flux.fromIterable(inOrder)
                .concatMap(webhook -> Flux.range(0, copies).flatMap(copy -> sender.send(webhook, uri)))
                .reduce(true, (allSoFar, delivered) -> allSoFar && delivered) // not all(): it would stop at a failure
                .map(all -> all ? Outcome.DELIVERED : Outcome.GAVE_UP);
    }

    /** Long enough for a charge's two webhooks, one after the other, to use all their time: a live delivery is never taken over. */
    private Duration lease() {
        return properties.delivery().giveUpAfter().multipliedBy(2).plusMinutes(1);
    }
}
