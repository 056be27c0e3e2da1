package com.payorch.merchantwebhooks.api;

import com.payorch.events.EventStore;
import com.payorch.merchantwebhooks.Delivery;
import com.payorch.merchantwebhooks.MerchantWebhookTargets;
import com.payorch.merchantwebhooks.WebhookDeliveries;
import com.payorch.support.PageRequest;
import com.payorch.support.Timestamps;
import com.payorch.web.ApiProblem;
import com.payorch.web.Pagination;
import java.security.Principal;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** The attempts to deliver one of the merchant's events to its webhook-url, and asking for one more. */
@RestController
public class DeliveryController {

    /** One attempt as the API shows it. */
    public record DeliveryResource(String id, int attempt, String status, Integer responseStatus, String error,
                                   String at) {

        static DeliveryResource of(Delivery delivery) {
            return new DeliveryResource(delivery.id(), delivery.attempt(), delivery.status(),
                    delivery.responseStatus(), delivery.error(), Timestamps.format(delivery.at()));
        }
    }

    private final EventStore events;
    private final WebhookDeliveries deliveries;
    private final MerchantWebhookTargets targets;

    public DeliveryController(EventStore events, WebhookDeliveries deliveries, MerchantWebhookTargets targets) {
        this.events = events;
        this.deliveries = deliveries;
        this.targets = targets;
    }

    @GetMapping("/v1/events/{eventId}/deliveries")
    public Mono<Map<String, Object>> list(@PathVariable String eventId,
                                          @RequestParam(required = false) String limit,
                                          @RequestParam(name = "starting_after", required = false) String startingAfter,
                                          Principal principal) {
        PageRequest page = Pagination.request(limit, startingAfter);
        String merchantId = principal.getName();
        return ownEvent(merchantId, eventId)
                .then(deliveries.list(merchantId, eventId, page))
                .map(found -> Pagination.body(found.map(DeliveryResource::of)));
    }

    @PostMapping("/v1/events/{eventId}/redeliver")
    public Mono<ResponseEntity<DeliveryResource>> redeliver(@PathVariable String eventId, Principal principal) {
        String merchantId = principal.getName();
        return ownEvent(merchantId, eventId)
                .then(Mono.defer(() -> {
                    if (targets.of(merchantId).isEmpty()) {
                        return Mono.error(ApiProblem.invalidRequest("Merchant " + merchantId
                                + " has no webhook-url (payments.merchants." + merchantId
                                + ".webhook-url): there is nowhere to deliver event " + eventId + "."));
                    }
                    return deliveries.redeliver(merchantId, eventId);
                }))
                .map(delivery -> ResponseEntity.status(HttpStatus.ACCEPTED).body(DeliveryResource.of(delivery)));
    }

    private Mono<Void> ownEvent(String merchantId, String eventId) {
        return events.findOwn(merchantId, eventId)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("No event " + eventId + ".")))
                .then();
    }
}
