package com.payorch.events.api;

import com.payorch.events.Event;
import com.payorch.events.EventStore;
import com.payorch.events.EventType;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import com.payorch.support.Timestamps;
import com.payorch.web.ApiProblem;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

@RestController
public class EventController {

    record EventResource(String id, String type, String paymentId, String bookingId, String createdAt, JsonNode data) {
    }

    private final EventStore events;
    private final ObjectMapper objectMapper;

    public EventController(EventStore events, ObjectMapper objectMapper) {
        this.events = events;
        this.objectMapper = objectMapper;
    }

    @GetMapping("/v1/events")
    public Mono<Map<String, List<EventResource>>> list(@RequestParam(required = false) String paymentId,
                                                       @RequestParam(required = false) String bookingId,
                                                       @RequestParam(required = false) String type,
                                                       Principal principal) {
        EventType eventType = type == null ? null : EventType.fromValue(type).orElseThrow(() ->
                ApiProblem.invalidRequest("Query parameter 'type' must be one of " + EventType.allValues() + "."));
        return events.find(principal.getName(), paymentId, bookingId, eventType)
                .map(this::resource)
                .collectList()
                .map(data -> Map.of("data", data));
    }

    private EventResource resource(Event event) {
        return new EventResource(event.id(), event.type().value(), event.paymentId(), event.bookingId(),
                    Timestamps.format(event.createdAt()), objectMapper.readTree(event.dataJson()));
    }
}
