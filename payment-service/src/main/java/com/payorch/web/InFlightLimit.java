package com.payorch.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Admission control: at most {@code payments.http.max-in-flight} API and webhook requests at once per instance; one
 * more gets 503 {@code service_unavailable} with {@code Retry-After: 1} before authentication, body or idempotency
 * key are touched, so the client's retry with the same key is safe. Without it an instance past its peak queued every
 * request for a database connection until clients timed out (every create of a run at 80 % of the closed-loop peak
 * took over 5 s, docs/performance.md) while still doing the work of those that had left. Health, metrics and the
 * console are not counted: a load balancer must still see the instance alive. Metrics: gauge
 * {@code payments_http_in_flight}, counter {@code payments_http_refused_total}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class InFlightLimit implements WebFilter {

    private static final String RETRY_AFTER_SECONDS = "1";

    private final int limit;
    private final ProblemWriter problems;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Counter refused;

    public InFlightLimit(HttpLimitsProperties properties, ProblemWriter problems, MeterRegistry registry) {
        this.limit = properties.maxInFlight();
        this.problems = problems;
        Gauge.builder("payments.http.in.flight", inFlight, AtomicInteger::get)
                .description("API and webhook requests this instance is working on")
                .register(registry);
        this.refused = Counter.builder("payments.http.refused")
                .description("requests answered 503 because payments.http.max-in-flight were in progress")
                .register(registry);
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (limit == 0 || !exchange.getRequest().getPath().value().startsWith("/v1/")) {
            return chain.filter(exchange);
        }
        if (inFlight.incrementAndGet() > limit) {
            inFlight.decrementAndGet();
            refused.increment();
            return problems.write(exchange, new ApiProblem(ProblemCode.SERVICE_UNAVAILABLE,
                    "This instance is at its limit of " + limit + " requests in progress; retry after "
                            + RETRY_AFTER_SECONDS + " s.",
                    Map.of(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)));
        }
        return chain.filter(exchange).doFinally(signal -> inFlight.decrementAndGet());
    }
}
