package com.payorch.merchantwebhooks;

import com.payorch.events.Event;
import com.payorch.events.EventType;
import com.payorch.outbox.OutboxConsumer;
import java.util.EnumSet;
import java.util.Set;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The outbox consumer of every event type: plans attempt 1 of the event's delivery when its merchant has a
 * webhook-url (nothing, and no row, otherwise). Idempotent: a redelivered outbox event finds attempt 1 planned.
 * Sending is the dispatcher's, so a slow merchant endpoint never holds up the outbox.
 */
@Component
class MerchantWebhookPlanner implements OutboxConsumer {

    private final MerchantWebhookTargets targets;
    private final WebhookDeliveries deliveries;

    MerchantWebhookPlanner(MerchantWebhookTargets targets, WebhookDeliveries deliveries) {
        this.targets = targets;
        this.deliveries = deliveries;
    }

    @Override
    public EventType eventType() {
        return EventType.PAYMENT_CREATED;
    }

    @Override
    public Set<EventType> eventTypes() {
        return EnumSet.allOf(EventType.class);
    }

    @Override
    public Mono<Void> deliver(Event event) {
        return targets.of(event.merchantId()).isPresent() ? deliveries.plan(event) : Mono.empty();
    }
}
