package com.payorch.benchmark;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The framework's own ceiling for the benchmark: a request through the same server, filters and JVM that does no
 * work. Off unless `payments.benchmark.noop-endpoint=true`.
 */
@RestController
@ConditionalOnProperty(name = "payments.benchmark.noop-endpoint", havingValue = "true")
public class NoopController {

    @GetMapping("/bench/noop")
    public Mono<String> noop() {
        return Mono.just("ok");
    }
}
