package com.payorch.outbox;

import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The operator's view of the outbox's dead letters, `/actuator/outbox` (guarded like every actuator endpoint but
 * health: the operator key on the API port, or the management port). `GET` lists the oldest parked events (at most
 * {@value #LIST_LIMIT}); `POST /actuator/outbox/{eventId}` requeues one (due at once, attempts reset), `POST /actuator/outbox` all
 * of them.
 */
@Component
@Endpoint(id = "outbox")
public class OutboxEndpoint {

    static final int LIST_LIMIT = 100;

    private static final Logger log = LoggerFactory.getLogger(OutboxEndpoint.class);

    private final OutboxQueue queue;

    OutboxEndpoint(OutboxQueue queue) {
        this.queue = queue;
    }

    @ReadOperation
    public Mono<Map<String, List<ParkedEvent>>> parked() {
        return queue.parked(LIST_LIMIT).collectList().map(parked -> Map.of("parked", parked));
    }

    /** Requeues every parked event (after an outage of a downstream system): 200 {"requeued": n}. */
    @WriteOperation
    public Mono<Map<String, Object>> requeueAll() {
        return queue.requeueAll()
                .doOnNext(requeued -> log.info("{} parked events requeued by the operator", requeued))
                .map(requeued -> Map.of("requeued", requeued));
    }

    /** 200 {"requeued": true} for a parked event; {"requeued": false} when the id names no parked event. */
    @WriteOperation
    public Mono<Map<String, Object>> requeue(@Selector String eventId) {
        return queue.requeue(eventId)
                .doOnNext(requeued -> {
                    if (requeued) {
                        log.info("Parked event {} requeued by the operator", eventId);
                    }
                })
                .map(requeued -> Map.of("eventId", eventId, "requeued", requeued));
    }
}
