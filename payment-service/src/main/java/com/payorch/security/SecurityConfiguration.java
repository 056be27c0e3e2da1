package com.payorch.security;

import com.payorch.web.ApiProblem;
import com.payorch.web.ProblemCode;
import com.payorch.web.ProblemWriter;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
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
import org.springframework.security.web.server.util.matcher.AndServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.NegatedServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;
import reactor.core.publisher.Mono;

/**
 * `Authorization: Bearer <api-key>` on every /v1 endpoint except the gateway's webhooks, which carry their own
 * signature. No sessions, no cookies, no CSRF: each request authenticates itself.
 */
@Configuration
public class SecurityConfiguration {

    private static final String BEARER = "Bearer ";

    @Bean
    SecurityWebFilterChain apiSecurity(ServerHttpSecurity http, ApiKeys apiKeys, ProblemWriter problems) {
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
                .authorizeExchange(exchanges -> exchanges
                        .pathMatchers("/v1/webhooks/**").permitAll()
                        // the OpenAPI description and Swagger UI, without credentials
                        .pathMatchers("/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**",
                                "/webjars/swagger-ui/**").permitAll()
                        .pathMatchers("/v1/**").authenticated()
                        .anyExchange().permitAll())
                .exceptionHandling(handling -> handling
                        .authenticationEntryPoint(unauthenticated)
                        .accessDeniedHandler((exchange, e) -> unauthenticated.commence(exchange, null)))
                .build();
    }

    private static ReactiveAuthenticationManager authenticationManager(ApiKeys apiKeys) {
        return authentication -> Mono.justOrEmpty(apiKeys.merchantFor((String) authentication.getCredentials()))
                .<Authentication>map(MerchantAuthentication::new)
                .switchIfEmpty(Mono.error(new BadCredentialsException("unknown API key")));
    }

    /** Reads the bearer token; a request without one passes on unauthenticated and meets the entry point. */
    private static ServerAuthenticationConverter bearerToken() {
        return exchange -> {
            String header = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
            if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
                return Mono.empty();
            }
            String key = header.substring(BEARER.length()).trim();
            return key.isEmpty() ? Mono.empty() : Mono.just(new PresentedApiKey(key));
        };
    }
}
