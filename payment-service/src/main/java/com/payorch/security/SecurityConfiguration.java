package com.payorch.security;

import com.payorch.ratelimit.RateLimiter;
import com.payorch.web.ApiProblem;
import com.payorch.web.ProblemCode;
import com.payorch.web.ProblemWriter;
import java.util.Map;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.ServerAuthenticationEntryPoint;
import org.springframework.security.web.server.authentication.AuthenticationWebFilter;
import org.springframework.security.web.server.authentication.ServerAuthenticationConverter;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.firewall.ServerExchangeRejectedHandler;
import org.springframework.security.web.server.util.matcher.AndServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.NegatedServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * `Authorization: Bearer <api-key>` on every /v1 endpoint except the gateway's webhooks, which carry their own
 * signature; the operator's key on the actuator except health ({@link ActuatorGuard}). No sessions, no cookies,
 * no CSRF: each request authenticates itself.
 */
@Configuration
public class SecurityConfiguration {

    private static final String BEARER = "Bearer ";

    @Bean
    SecurityWebFilterChain apiSecurity(ServerHttpSecurity http, ApiKeys apiKeys, ProblemWriter problems,
                                       OperatorProperties operator, Environment environment,
                                       RateLimiter rateLimiter) {
        ServerAuthenticationEntryPoint unauthenticated = (exchange, e) -> problems.write(exchange, new ApiProblem(
                ProblemCode.UNAUTHENTICATED, "Send a valid API key as 'Authorization: Bearer <api-key>'.",
                Map.of(HttpHeaders.WWW_AUTHENTICATE, "Bearer")));

        AuthenticationWebFilter apiKeyFilter = new AuthenticationWebFilter(authenticationManager(apiKeys));
        apiKeyFilter.setServerAuthenticationConverter(bearerToken());
        apiKeyFilter.setAuthenticationFailureHandler(
                (webFilterExchange, e) -> unauthenticated.commence(webFilterExchange.getExchange(), e));
        apiKeyFilter.setSecurityContextRepository(NoOpServerSecurityContextRepository.getInstance());
        apiKeyFilter.setRequiresAuthenticationMatcher(new AndServerWebExchangeMatcher(
                ServerWebExchangeMatchers.pathMatchers("/v1/**"),
                new NegatedServerWebExchangeMatcher(ServerWebExchangeMatchers.pathMatchers("/v1/webhooks/**"))));

        return http
                .csrf(ServerHttpSecurity.CsrfSpec::disable)
                .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                .formLogin(ServerHttpSecurity.FormLoginSpec::disable)
                .logout(ServerHttpSecurity.LogoutSpec::disable)
                .requestCache(ServerHttpSecurity.RequestCacheSpec::disable)
                .securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
                .addFilterAt(apiKeyFilter, SecurityWebFiltersOrder.AUTHENTICATION)
                .addFilterBefore(new ActuatorGuard(operator,
                                ManagementPortType.get(environment) == ManagementPortType.DIFFERENT, problems),
                        SecurityWebFiltersOrder.AUTHENTICATION)
                // After authorization, so only an authenticated merchant's requests count, and before any handler.
                .addFilterAfter(new RateLimitFilter(rateLimiter, problems), SecurityWebFiltersOrder.AUTHORIZATION)
                .authorizeExchange(exchanges -> exchanges
                        .pathMatchers("/v1/webhooks/**").permitAll()
                        // the OpenAPI description and Swagger UI, without credentials
                        .pathMatchers("/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**",
                                "/webjars/swagger-ui/**").permitAll()
                        .pathMatchers("/v1/**").authenticated()
                        // The actuator is guarded by ActuatorGuard (operator key), not by a merchant's key.
                        .anyExchange().permitAll())
                .exceptionHandling(handling -> handling
                        .authenticationEntryPoint(unauthenticated)
                        .accessDeniedHandler((exchange, e) -> unauthenticated.commence(exchange, null)))
                .build();
    }

    /**
     * Spring Security's firewall refuses some URLs before any handler sees them (an encoded U+0000, `..` segments,
     * encoded slashes); by default with a bare 400. This gives them the same problem body as any other bad input.
     */
    @Bean
    ServerExchangeRejectedHandler firewallRejections(ProblemWriter problems) {
        return (exchange, rejected) -> problems.write(exchange, ApiProblem.invalidRequest(
                "The request URL is not allowed: it contains an encoded control character or another unsafe sequence."));
    }

    private static ReactiveAuthenticationManager authenticationManager(ApiKeys apiKeys) {
        return authentication -> Mono.justOrEmpty(apiKeys.merchantFor((String) authentication.getCredentials()))
                .<Authentication>map(MerchantAuthentication::new)
                .switchIfEmpty(Mono.error(new BadCredentialsException("unknown API key")));
    }

    /** Reads the bearer token; a request without one passes on unauthenticated and meets the entry point. */
    private static ServerAuthenticationConverter bearerToken() {
        return exchange -> Mono.justOrEmpty(bearerTokenOf(exchange)).map(PresentedApiKey::new);
    }

    /** The token of `Authorization: Bearer <token>`, or null when there is none. */
    static String bearerTokenOf(ServerWebExchange exchange) {
        String header = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        String key = header.substring(BEARER.length()).trim();
        return key.isEmpty() ? null : key;
    }
}
