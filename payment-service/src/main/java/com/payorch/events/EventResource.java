package com.payorch.events;

import com.payorch.support.Timestamps;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** An event as the API shows it: in `GET /v1/events` and as the `data` of a merchant webhook. */
public record EventResource(String id, String type, String paymentId, String bookingId, String createdAt,
                            JsonNode data) {

    public static EventResource of(Event event, ObjectMapper objectMapper) {
        return new EventResource(event.id(), event.type().value(), event.paymentId(), event.bookingId(),
                Timestamps.format(event.createdAt()), objectMapper.readTree(event.dataJson()));
    }
}
