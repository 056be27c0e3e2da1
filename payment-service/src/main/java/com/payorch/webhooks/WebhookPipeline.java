package com.payorch.webhooks;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.WebhookAcknowledgement;
import com.payorch.payments.PaymentMetrics;
import com.payorch.support.Refusal;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Webhook ingestion, the same for every connector: verify the signature on the raw bytes -> parse (the connector's
 * adapter) -> for each notification, on its own: dedup receipt, match to an attempt, apply through the write path
 * ({@link WebhookApplier}).
 *
 * <p>Each item of a batch is applied on its own: one that fails never stops the others. The request is then
 * answered by what failed:
 * <ul>
 *   <li>an item whose redelivery may succeed (a database or connector failure, "not matchable yet"): that failure
 *       (a 5xx), so the connector delivers the whole request again; the items applied meanwhile hold their receipts,
 *       so their redelivery is a duplicate and only the failed item is applied then;</li>
 *   <li>an item refused for good (a payment or refund that does not exist): answered as before for a connector that
 *       expects the first item's outcome ({@code 404} for the sandbox); an {@code [accepted]} connector (Adyen)
 *       gets {@code [accepted]}: a redelivery cannot change the answer (logged and counted as {@code unmatched}).</li>
 * </ul>
 */
@Component
public class WebhookPipeline {

    private static final Logger log = LoggerFactory.getLogger(WebhookPipeline.class);

    private final WebhookApplier applier;
    private final ChargesNeverMade neverMade;
    private final RecordedSignatureFailures signatureFailures;
    private final PaymentMetrics metrics;

    WebhookPipeline(WebhookApplier applier, ChargesNeverMade neverMade, RecordedSignatureFailures signatureFailures,
                    PaymentMetrics metrics) {
        this.applier = applier;
        this.neverMade = neverMade;
        this.signatureFailures = signatureFailures;
        this.metrics = metrics;
    }

    /**
     * @param acknowledgement how the connector expects the request answered (its {@code Connector#acknowledgement})
     * @return the outcome of each item applied, in the batch's order
     * @throws WebhookSignatureInvalid  before anything is parsed (or WebhookSignatureRejected, as the connector's
     *                                  convention asks); the failure is counted and kept for the console
     * @throws WebhookInvalid          when the verified body is malformed
     */
    public Mono<List<WebhookOutcome>> receive(ConnectorWebhooks connector, WebhookAcknowledgement acknowledgement,
                                              HttpHeaders headers, byte[] rawBody) {
        return Mono.defer(() -> {
            if (!connector.verify(headers, rawBody)) {
                metrics.webhook("invalid_signature");
                // Kept in the background: a flood of forged requests (or a database outage) never holds the answer.
                signatureFailures.record(connector.connector(), connector.merchantId(),
                        "the request's signature did not verify (" + rawBody.length + " bytes)");
                return Mono.error(switch (connector.signatureFailure()) {
                    case UNAUTHORIZED -> new WebhookSignatureInvalid();
                    case BAD_REQUEST -> new WebhookSignatureRejected();
                });
            }
            return connector.notifications(headers, rawBody)
                    .doOnError(WebhookInvalid.class, invalid -> metrics.webhook("invalid"))
                    .flatMap(notifications -> Flux.fromIterable(notifications)
                            .concatMap(notification -> applyAlone(connector, notification))
                            .collectList())
                    .flatMap(items -> answer(connector, acknowledgement, items));
        });
    }

    /** What became of one item: its outcome, or why it could not be applied. */
    private record Item(ConnectorNotification notification, @Nullable WebhookOutcome outcome,
                        @Nullable Throwable failure) {
    }

    private Mono<Item> applyAlone(ConnectorWebhooks connector, ConnectorNotification notification) {
        Mono<WebhookOutcome> applied = NotificationRoute.of(notification) == NotificationRoute.CHARGE_NEVER_MADE
                ? neverMade.ignore(connector.connector(), connector.merchantId(), notification)
                : applier.apply(connector.connector(), connector.merchantId(), notification);
        return applied
                .map(outcome -> new Item(notification, outcome, null))
                .onErrorResume(failure -> Mono.just(new Item(notification, null, failure)));
    }

    private Mono<List<WebhookOutcome>> answer(ConnectorWebhooks connector, WebhookAcknowledgement acknowledgement,
                                              List<Item> items) {
        List<Item> failed = items.stream().filter(item -> item.failure() != null).toList();
        Optional<Item> retry = failed.stream().filter(item -> redeliveryMayHelp(item.failure())).findFirst();
        if (items.size() > 1) {
            failed.forEach(item -> log.warn("webhook={} connector={} merchant={}: one item of a batch of {} was not"
                            + " applied ({}); the others were", item.notification().receiptId(), connector.connector(),
                    connector.merchantId(), items.size(), item.failure().toString()));
        }
        if (retry.isPresent()) {
            return Mono.error(retry.get().failure());
        }
        if (!failed.isEmpty()) {
            if (acknowledgement == WebhookAcknowledgement.STATUS_JSON) {
                return Mono.error(failed.get(0).failure());
            }
            failed.forEach(item -> metrics.webhook("unmatched"));
        }
        return Mono.just(items.stream().filter(item -> item.outcome() != null).map(Item::outcome).toList());
    }

    /**
     * Whether the connector's redelivery could be applied: anything but the domain's refusals (a database or
     * connector failure, a bug), and a refusal that asks to be delivered again ({@link WebhookNotYetMatchable}).
     */
    private static boolean redeliveryMayHelp(Throwable failure) {
        return !(failure instanceof Refusal refusal) || "service_unavailable".equals(refusal.code());
    }
}
