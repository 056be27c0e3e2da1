package com.payorch.shutdown;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.shutdown.*}: how a stopping instance leaves its load balancer.
 *
 * @param readinessDrain After a shutdown began (SIGTERM), how long the instance goes on accepting new requests while
 *                       {@code /actuator/health/readiness} already answers 503, before the web server stops accepting
 *                       and waits for in-flight requests (spring.lifecycle.timeout-per-shutdown-phase). Set it to
 *                       about the load balancer's readiness period times its failure threshold (Kubernetes: or use a
 *                       preStop sleep instead), so that no request is routed to an instance that no longer listens.
 *                       0 (the default): stop accepting at once.
 */
@ConfigurationProperties("payments.shutdown")
public record ShutdownProperties(@DefaultValue("PT0S") Duration readinessDrain) {

    public ShutdownProperties {
        if (readinessDrain.isNegative()) {
            throw new IllegalArgumentException("payments.shutdown.readiness-drain must not be negative");
        }
    }
}
