package com.payorch.web;

import com.payorch.support.DatabaseErrors;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.stereotype.Component;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.NotAcceptableStatusException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Turns every exception that reaches the web layer into a problem response: refusals keep their code, framework
 * errors get a stable code, and anything unexpected becomes a 500 whose body says nothing about the internals.
 */
@Component
@Order(-2) // before Spring Boot's default error handler, which would render its own JSON
public class ProblemResponses implements WebExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemResponses.class);

    /** How long a client should wait before retrying after a 503. */
    static final String RETRY_AFTER_SECONDS = "1";

    private final ProblemWriter writer;

    public ProblemResponses(ProblemWriter writer) {
        this.writer = writer;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
        return writer.write(exchange, toProblem(exchange, error));
    }

    ApiProblem toProblem(ServerWebExchange exchange, Throwable error) {
        if (error instanceof ApiProblem problem) {
            return problem;
        }
        Optional<ApiProblem> domain = DomainProblems.of(error);
        if (domain.isPresent()) {
            return domain.get();
        }
        if (error instanceof DataBufferLimitException) {
            return new ApiProblem(ProblemCode.PAYLOAD_TOO_LARGE, "The request body exceeds 64 KiB.");
        }
        if (error instanceof MethodNotAllowedException e) {
            String allow = String.join(", ", e.getSupportedMethods().stream().map(Object::toString).sorted().toList());
            return new ApiProblem(ProblemCode.METHOD_NOT_ALLOWED,
                    "Method " + e.getHttpMethod() + " is not allowed here.", Map.of("Allow", allow));
        }
        if (error instanceof UnsupportedMediaTypeStatusException) {
            return new ApiProblem(ProblemCode.UNSUPPORTED_MEDIA_TYPE, "Send the request body as application/json.");
        }
        if (error instanceof NotAcceptableStatusException) {
            return new ApiProblem(ProblemCode.NOT_ACCEPTABLE, "This resource is only available as application/json.");
        }
        if (error instanceof ServerWebInputException e) {
            return ApiProblem.invalidRequest(e.getReason() != null ? e.getReason() : "The request is invalid.");
        }
        if (error instanceof ResponseStatusException e && e.getStatusCode().value() == 404) {
            return ApiProblem.notFound("No resource at " + exchange.getRequest().getPath().value() + ".");
        }
        if (error instanceof ResponseStatusException e && e.getStatusCode().is4xxClientError()) {
            return ApiProblem.invalidRequest(e.getReason() != null ? e.getReason() : "The request is invalid.");
        }
        if (error instanceof ConcurrencyFailureException) {
            return new ApiProblem(ProblemCode.CONCURRENT_MODIFICATION,
                    "The resource was changed by another request; fetch it and try again.");
        }
        if (DatabaseErrors.isBadCharacter(error)) {
            // The safety net behind the parsers' own checks: text PostgreSQL cannot store is the client's error.
            log.warn("Database refused the text of {} {}: {}", exchange.getRequest().getMethod(),
                    exchange.getRequest().getPath(), DatabaseErrors.summary(error));
            return new ApiProblem(isWebhook(exchange) ? ProblemCode.WEBHOOK_INVALID : ProblemCode.INVALID_REQUEST,
                    "The request contains characters that cannot be stored (such as U+0000 or invalid UTF-8).");
        }
        if (DatabaseErrors.isUnavailable(error)) {
            // Expected during a database outage or restart: one line, no stack trace.
            log.warn("Database unavailable while serving {} {}: {}", exchange.getRequest().getMethod(),
                    exchange.getRequest().getPath(), DatabaseErrors.summary(error));
            return serviceUnavailable();
        }
        if (error instanceof reactor.netty.channel.AbortedException) {
            // The client's connection is gone (or web/HttpLimits closed it on a broken or late body): no one to
            // answer, nothing unexpected.
            log.debug("Connection closed while serving {} {}", exchange.getRequest().getMethod(),
                    exchange.getRequest().getPath());
            return ApiProblem.invalidRequest("The connection was closed before the request was complete.");
        }
        log.error("Unexpected error serving {} {}", exchange.getRequest().getMethod(), exchange.getRequest().getPath(),
                error);
        return new ApiProblem(ProblemCode.INTERNAL_ERROR, "An unexpected error occurred; it has been logged.");
    }

    /** 503 with {@code Retry-After}: the database cannot be reached now; the same request may be sent again. */
    public static ApiProblem serviceUnavailable() {
        return new ApiProblem(ProblemCode.SERVICE_UNAVAILABLE, "The service is temporarily unavailable; retry later.",
                Map.of("Retry-After", RETRY_AFTER_SECONDS));
    }

    private static boolean isWebhook(ServerWebExchange exchange) {
        return exchange.getRequest().getPath().value().startsWith("/v1/webhooks/");
    }
}
