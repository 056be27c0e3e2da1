package com.payorch.console.api;

import com.payorch.console.ConsoleProperties;
import com.payorch.console.ConsoleReadModel;
import com.payorch.console.ConsoleUser;
import java.time.Duration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Flux;

/**
 * The server-sent event stream of an open payment page: every {@code payments.console.live-poll-interval} it reads
 * the payment's change mark (one small query) and sends a {@code changed} event when the mark differs from the last
 * one sent; the page's script then fetches the page's live sections. A stream ends after 30 minutes; the browser's
 * EventSource reconnects by itself.
 */
@RestController
public class LiveUpdatesController {

    private static final Duration STREAM_LIFETIME = Duration.ofMinutes(30);

    private final ConsoleReadModel reads;
    private final ConsoleProperties properties;

    public LiveUpdatesController(ConsoleReadModel reads, ConsoleProperties properties) {
        this.reads = reads;
        this.properties = properties;
    }

    @GetMapping(path = "/console/payments/{paymentId}/live", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public Flux<ServerSentEvent<String>> live(@AuthenticationPrincipal ConsoleUser user,
                                              @PathVariable String paymentId, ServerHttpResponse response) {
        return reads.changeMark(user.scope(), paymentId)
                .doOnSuccess(found -> {
                    if (found == null) {
                        response.setStatusCode(HttpStatus.NOT_FOUND);
                    }
                })
                .flatMapMany(first -> Flux.interval(Duration.ZERO, properties.livePollInterval())
                        .concatMap(tick -> reads.changeMark(user.scope(), paymentId))
                        .distinctUntilChanged()
                        .map(mark -> ServerSentEvent.builder(mark).event("changed").build())
                        .take(STREAM_LIFETIME));
    }
}
