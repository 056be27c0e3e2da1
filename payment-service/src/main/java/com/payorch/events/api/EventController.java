package com.payorch.events.api;

import com.payorch.events.Event;
import com.payorch.events.EventResource;
import com.payorch.events.EventStore;
import com.payorch.events.EventType;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import com.payorch.support.Timestamps;
import com.payorch.support.PageRequest;
import com.payorch.web.ApiProblem;
import com.payorch.web.Pagination;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

@RestController
public class EventController {

    private final EventStore events;
    private final ObjectMapper objectMapper;

    public EventController(EventStore events, ObjectMapper objectMapper) {
        this.events = events;
        this.objectMapper = objectMapper;
    }

    @GetMapping("/v1/events")
    public Mono<Map<String, Object>> list(@RequestParam(required = false) String paymentId,
                                          @RequestParam(required = false) String bookingId,
                                          @RequestParam(required = false) String type,
                                          @RequestParam(required = false) String limit,
                                          @RequestParam(name = "starting_after", required = false) String startingAfter,
                                          Principal principal) {
        EventType eventType = type == null ? null : EventType.fromValue(type).orElseThrow(() ->
                ApiProblem.invalidRequest("Query parameter 'type' must be one of " + EventType.allValues() + "."));
        PageRequest page = Pagination.request(limit, startingAfter);
        return events.list(principal.getName(), paymentId, bookingId, eventType, page)
                .map(found -> Pagination.body(found.map(this::resource)));
    }

    private EventResource resource(Event event) {
        return EventResource.of(event, objectMapper);
    }
}
