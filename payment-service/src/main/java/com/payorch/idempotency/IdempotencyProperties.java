package com.payorch.idempotency;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * `payments.idempotency.retention`: how long a key and its stored response are kept (then the key is new again).
 * `payments.idempotency.lock-timeout`: how long a request may hold its key before another attempt may take over
 * (frees keys whose server died mid-request).
 */
@ConfigurationProperties("payments.idempotency")
public record IdempotencyProperties(Duration retention, Duration lockTimeout, Duration cleanupInterval,
                                    int cleanupBatchSize) {

    public IdempotencyProperties {
        retention = retention != null ? retention : Duration.ofHours(24);
        lockTimeout = lockTimeout != null ? lockTimeout : Duration.ofSeconds(30);
        cleanupInterval = cleanupInterval != null ? cleanupInterval : Duration.ofMinutes(1);
        cleanupBatchSize = cleanupBatchSize > 0 ? cleanupBatchSize : 1000;
    }
}
