package com.payorch.console;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One thing that happened to a payment, for its single timeline: {@code kind} is one of {@code transition},
 * {@code cancel} (a cancel of the hold recorded), {@code attempt}, {@code webhook}, {@code event}, {@code delivery},
 * {@code refund}, {@code dispute}, {@code email}; {@code reference} is the id that ties it to the outside (an idempotency key, a
 * webhook id, a connector reference, an event id).
 */
public record TimelineEntry(Instant at, String kind, String summary, @Nullable String detail,
                            @Nullable String reference) {
}
