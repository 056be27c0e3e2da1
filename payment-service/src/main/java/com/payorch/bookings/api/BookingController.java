package com.payorch.bookings.api;

import com.payorch.bookings.BookingStore;

import com.payorch.support.Timestamps;
import com.payorch.web.ApiProblem;
import java.security.Principal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

@RestController
public class BookingController {

    record BookingResource(String id, String status, String paymentId, String activatedAt, String cancelledAt) {
    }

    private final BookingStore bookings;

    public BookingController(BookingStore bookings) {
        this.bookings = bookings;
    }

    @GetMapping("/v1/bookings/{bookingId}")
    public Mono<BookingResource> get(@PathVariable String bookingId, Principal principal) {
        return bookings.find(principal.getName(), bookingId)
                .map(b -> new BookingResource(b.id(), b.status().name(), b.paymentId(),
                        Timestamps.format(b.activatedAt()), Timestamps.format(b.cancelledAt())))
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("No booking " + bookingId + ".")));
    }
}
