package com.payorch.security;

import com.payorch.web.ApiProblem;
import com.payorch.web.ProblemCode;
import com.payorch.web.ProblemWriter;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.security.web.server.util.matcher.AndServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.NegatedServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The actuator on the API port: `/actuator/health` and its groups are open; everything else (metrics above all)
 * needs the operator's key, `Authorization: Bearer <payments.operator.api-key>`, compared in constant time.
 * Without an operator key it is not served at all (404); with a wrong or missing key, or a merchant's key, 401.
 * When the actuator has its own `management.server.port`, the API port has no actuator and this guard stands aside.
 */
final class ActuatorGuard implements WebFilter {

    static final ServerWebExchangeMatcher OPEN = ServerWebExchangeMatchers.pathMatchers(
            "/actuator/health", "/actuator/health/**");
    private static final ServerWebExchangeMatcher GUARDED = new AndServerWebExchangeMatcher(
            ServerWebExchangeMatchers.pathMatchers("/actuator", "/actuator/**"), new NegatedServerWebExchangeMatcher(OPEN));

    /** A health path the actuator may be asked: group and component names of plain characters. */
    private static final java.util.regex.Pattern HEALTH_PATH =
            java.util.regex.Pattern.compile("/actuator/health(/[A-Za-z0-9_.-]+)*/?");

    private final ApiKeys.Digest operatorKey;
    private final boolean separateManagementPort;
    private final ProblemWriter problems;

    ActuatorGuard(OperatorProperties operator, boolean separateManagementPort, ProblemWriter problems) {
        this.operatorKey = operator.apiKey() == null ? null : ApiKeys.Digest.of(operator.apiKey());
        this.separateManagementPort = separateManagementPort;
        this.problems = problems;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (separateManagementPort) {
            return chain.filter(exchange);
        }
        String path = exchange.getRequest().getPath().pathWithinApplication().value();
        if (path.startsWith("/actuator/health/") && !HEALTH_PATH.matcher(path).matches()) {
            // Spring Boot's health endpoint throws (a 500) on some paths it does not know, e.g. a non-ASCII segment;
            // a health group or component name is a plain name.
            return problems.write(exchange, ApiProblem.notFound("No resource at " + path + "."));
        }
        return GUARDED.matches(exchange).flatMap(match -> {
            if (!match.isMatch()) {
                return chain.filter(exchange);
            }
            if (operatorKey == null) {
                return problems.write(exchange, ApiProblem.notFound(
                        "No resource at " + exchange.getRequest().getPath().value() + "."));
            }
            String presented = SecurityConfiguration.bearerTokenOf(exchange);
            if (presented != null && operatorKey.matches(presented)) {
                return chain.filter(exchange);
            }
            return problems.write(exchange, new ApiProblem(ProblemCode.UNAUTHENTICATED,
                    "Send the operator key as 'Authorization: Bearer <payments.operator.api-key>'.",
                    Map.of(HttpHeaders.WWW_AUTHENTICATE, "Bearer")));
        });
    }
}
