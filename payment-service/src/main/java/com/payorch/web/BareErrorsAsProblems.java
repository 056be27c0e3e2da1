package com.payorch.web;

import java.util.Map;
import org.reactivestreams.Publisher;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The safety net behind {@link ProblemResponses}: an error answer that some framework part completes without a body or
 * content type (the actuator's 404 for an unknown health group, for one) is sent as a problem instead. The console
 * (HTML for browsers) is left alone.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class BareErrorsAsProblems implements WebFilter {

    private static final Map<Integer, ProblemCode> CODES = Map.of(
            400, ProblemCode.INVALID_REQUEST, 401, ProblemCode.UNAUTHENTICATED, 404, ProblemCode.NOT_FOUND,
            405, ProblemCode.METHOD_NOT_ALLOWED, 406, ProblemCode.NOT_ACCEPTABLE, 413, ProblemCode.PAYLOAD_TOO_LARGE,
            415, ProblemCode.UNSUPPORTED_MEDIA_TYPE, 500, ProblemCode.INTERNAL_ERROR,
            503, ProblemCode.SERVICE_UNAVAILABLE);

    private final ProblemWriter writer;

    public BareErrorsAsProblems(ProblemWriter writer) {
        this.writer = writer;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (exchange.getRequest().getPath().value().startsWith("/console")) {
            return chain.filter(exchange);
        }
        Guarded guarded = new Guarded(exchange.getResponse());
        ServerWebExchange decorated = exchange.mutate().response(guarded).build();
        guarded.exchange = decorated;
        return chain.filter(decorated);
    }

    private final class Guarded extends ServerHttpResponseDecorator {

        private ServerWebExchange exchange;

        Guarded(ServerHttpResponse delegate) {
            super(delegate);
        }

        private ProblemCode bare() {
            HttpStatusCode status = getStatusCode();
            if (status == null || status.value() < 400 || getHeaders().getContentType() != null || isCommitted()) {
                return null;
            }
            return CODES.get(status.value());
        }

        private Mono<Void> problem(ProblemCode code) {
            String detail = code == ProblemCode.NOT_FOUND
                    ? "No resource at " + exchange.getRequest().getPath().value() + "."
                    : code.title() + ".";
            Map<String, String> headers = code == ProblemCode.SERVICE_UNAVAILABLE
                    ? Map.of("Retry-After", ProblemResponses.RETRY_AFTER_SECONDS) : Map.of();
            return writer.write(exchange, new ApiProblem(code, detail, headers));
        }

        @Override
        public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
            ProblemCode code = bare();
            if (code != null) {
                return Flux.from(body).doOnNext(DataBufferUtils::release).then(problem(code));
            }
            return super.writeWith(body);
        }

        @Override
        public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
            ProblemCode code = bare();
            if (code != null) {
                return Flux.from(body).flatMap(Flux::from).doOnNext(DataBufferUtils::release).then(problem(code));
            }
            return super.writeAndFlushWith(body);
        }

        @Override
        public Mono<Void> setComplete() {
            ProblemCode code = bare();
            return code != null ? problem(code) : super.setComplete();
        }
    }
}
