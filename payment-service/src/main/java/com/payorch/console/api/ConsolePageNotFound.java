package com.payorch.console.api;

import java.nio.charset.StandardCharsets;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * A console address that no page answers gets an HTML 404 page instead of the API's problem+json (whose handler,
 * {@code web.ProblemResponses}, runs after this one and still answers everything outside /console).
 */
@Component
@Order(-3)
class ConsolePageNotFound implements WebExceptionHandler {

    private static final byte[] PAGE = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Not found · Payments console</title>
            <link rel="stylesheet" href="/console/assets/console.css"></head>
            <body><main class="page"><h1>Not found</h1><p>There is no such page in the console.</p>
            <p><a href="/console">Back to the overview</a></p></main></body></html>
            """.getBytes(StandardCharsets.UTF_8);

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
        String path = exchange.getRequest().getPath().pathWithinApplication().value();
        boolean console = path.equals("/console") || path.startsWith("/console/");
        if (!console || !(ex instanceof ResponseStatusException status) || status.getStatusCode().value() != 404
                || exchange.getResponse().isCommitted()) {
            return Mono.error(ex);
        }
        exchange.getResponse().setStatusCode(HttpStatus.NOT_FOUND);
        exchange.getResponse().getHeaders().setContentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8));
        return exchange.getResponse().writeWith(Mono.just(exchange.getResponse().bufferFactory().wrap(PAGE)));
    }
}
