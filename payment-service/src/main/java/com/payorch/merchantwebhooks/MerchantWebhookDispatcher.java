package com.payorch.merchantwebhooks;

import com.payorch.jobs.ClaimTokens;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * One run of the delivery job: claims due attempts (a lease per batch token, SKIP LOCKED), sends each, and records
 * its result fenced by the token. A failed attempt gets a successor after the backoff unless the event's first
 * attempt is older than `give-up-after` by then; the attempt row stays `failed` either way.
 *
 * <p>Metrics: `payments_merchant_webhook_deliveries_total{result}` (`succeeded`, `failed`, `gave_up`: a failure with
 * no further attempt) and `payments_merchant_webhook_oldest_undelivered_seconds` (the age of the oldest event with an
 * attempt still pending; 0 when none).
 */
@Component
class MerchantWebhookDispatcher {

    private static final Logger log = LoggerFactory.getLogger(MerchantWebhookDispatcher.class);
    private static final String DELIVERIES = "payments.merchant_webhook.deliveries";

    private final WebhookDeliveries deliveries;
    private final MerchantWebhookSender sender;
    private final MerchantWebhookTargets targets;
    private final MerchantWebhookProperties properties;
    private final Clock clock;
    private final MeterRegistry meters;
    private final ClaimTokens tokens;
    private final AtomicReference<Double> oldestUndelivered = new AtomicReference<>(0.0);

    MerchantWebhookDispatcher(WebhookDeliveries deliveries, MerchantWebhookSender sender,
                              MerchantWebhookTargets targets, MerchantWebhookProperties properties, Clock clock,
                              MeterRegistry meters, ClaimTokens tokens) {
        this.tokens = tokens;
        this.deliveries = deliveries;
        this.sender = sender;
        this.targets = targets;
        this.properties = properties;
        this.clock = clock;
        this.meters = meters;
        Gauge.builder("payments.merchant_webhook.oldest_undelivered", oldestUndelivered, AtomicReference::get)
                .description("Age in seconds of the oldest event whose merchant webhook is not delivered yet")
                .baseUnit("seconds")
                .register(meters);
    }

    /** Claims and sends due attempts, batch after batch, until a batch comes back less than full. */
    Mono<Void> deliverDue() {
        return batch().expand(claimed -> claimed == properties.batchSize() ? batch() : Mono.empty()).then();
    }

    private Mono<Integer> batch() {
        UUID token = tokens.next();
        return deliveries.claimDue(token, properties.lease(), properties.batchSize())
                .flatMap(claimed -> deliver(claimed, token), properties.batchSize())
                .count()
                .map(Long::intValue);
    }

    private Mono<Void> deliver(WebhookDeliveries.Claimed claimed, UUID token) {
        var delivery = claimed.delivery();
        var target = targets.of(delivery.merchantId());
        Mono<MerchantWebhookSender.Result> result = target.isEmpty() || claimed.event().type() == null
                ? Mono.just(new MerchantWebhookSender.Result(false, null, "no webhook-url configured"))
                : sender.send(claimed.event(), target.get());
        return result.flatMap(outcome -> {
            Double nextDue = null;
            if (!outcome.succeeded() && target.isPresent()) {
                Duration backoff = properties.backoffAfter(delivery.attempt());
                Instant firstAt = claimed.firstAttemptAt() != null ? claimed.firstAttemptAt() : delivery.at();
                if (!clock.instant().plus(backoff).isAfter(firstAt.plus(properties.giveUpAfter()))) {
                    nextDue = backoff.toMillis() / 1000.0;
                }
            }
            String counted = outcome.succeeded() ? "succeeded" : nextDue == null ? "gave_up" : "failed";
            Double next = nextDue;
            return deliveries.record(delivery, token, outcome.succeeded(), outcome.responseStatus(), outcome.error(),
                            next)
                    .doOnNext(recorded -> {
                        if (!recorded) {
                            log.warn("Webhook attempt {} of event {} (merchant {}): the claim was lost; not recorded",
                                    delivery.attempt(), delivery.eventId(), delivery.merchantId());
                            return;
                        }
                        Counter.builder(DELIVERIES).tag("result", counted)
                                .description("Attempts to deliver events to merchant webhooks, by result")
                                .register(meters).increment();
                        if (outcome.succeeded()) {
                            log.info("Webhook attempt {} of event {} delivered to merchant {} (HTTP {})",
                                    delivery.attempt(), delivery.eventId(), delivery.merchantId(),
                                    outcome.responseStatus());
                        } else {
                            log.warn("Webhook attempt {} of event {} to merchant {} failed ({}); {}",
                                    delivery.attempt(), delivery.eventId(), delivery.merchantId(), outcome.error(),
                                    next == null ? "given up" : "next attempt in " + next + " s");
                        }
                    })
                    .then();
        });
    }

    Mono<Void> refreshOldestUndelivered() {
        return deliveries.oldestUndeliveredSeconds().doOnNext(oldestUndelivered::set).then();
    }

}
