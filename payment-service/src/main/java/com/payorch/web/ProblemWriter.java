package com.payorch.web;

import tools.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Writes an {@link ApiProblem} as `application/problem+json`; shared by the error handler and the security chain. */
@Component
public class ProblemWriter {

    private final ObjectMapper objectMapper;

    public ProblemWriter(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    public Mono<Void> write(ServerWebExchange exchange, ApiProblem problem) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.empty();
        }
        ProblemCode code = problem.problemCode();
        response.setStatusCode(code.status());
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        problem.headers().forEach((name, value) -> response.getHeaders().set(name, value));
        DataBuffer buffer = response.bufferFactory().wrap(body(exchange, problem));
        return response.writeWith(Mono.just(buffer));
    }

    private byte[] body(ServerWebExchange exchange, ApiProblem problem) {
        ProblemCode code = problem.problemCode();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", code.type());
        body.put("title", code.title());
        body.put("status", code.status().value());
        body.put("detail", problem.detail());
        body.put("instance", exchange.getRequest().getPath().value());
        body.put("code", code.code());
        return objectMapper.writeValueAsBytes(body);
    }
}
