package com.payorch.security;

import com.payorch.ratelimit.RateLimiter;

import com.payorch.web.ApiProblem;
import com.payorch.web.ProblemCode;
import com.payorch.web.ProblemWriter;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Refuses a merchant's request over its rate with 429 `rate_limited` and `Retry-After`, in the security chain after
 * authentication and before any handler: a refused request reads no body, touches no idempotency key, changes
 * nothing. Requests without a merchant (webhooks, health) are not limited here.
 */
public final class RateLimitFilter implements WebFilter {

    private final RateLimiter limiter;
    private final ProblemWriter problems;

    public RateLimitFilter(RateLimiter limiter, ProblemWriter problems) {
        this.limiter = limiter;
        this.problems = problems;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!limiter.enabled()) {
            return chain.filter(exchange);
        }
        return ReactiveSecurityContextHolder.getContext()
                .map(SecurityContext::getAuthentication)
                .filter(MerchantAuthentication.class::isInstance)
                .map(authentication -> limiter.refuse(authentication.getName()))
                .flatMap(refusal -> refusal.isPresent()
                        ? problems.write(exchange, new ApiProblem(ProblemCode.RATE_LIMITED,
                                "Too many requests for this API key; retry after " + refusal.getAsLong() + " s.",
                                Map.of(HttpHeaders.RETRY_AFTER, Long.toString(refusal.getAsLong())))).thenReturn(true)
                        : Mono.just(false))
                .defaultIfEmpty(false)
                .flatMap(refused -> refused ? Mono.empty() : chain.filter(exchange));
    }
}
