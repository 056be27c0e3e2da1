package com.payorch.idempotency;

import com.payorch.support.Settings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.idempotency.*}: how long idempotency keys live, how long a request holds its key, and the cleanup
 * of expired keys.
 *
 * @param retention        How long a key and its stored response are kept; after that the key is new again.
 * @param lockTimeout      How long a request may hold its key before a retry may take it over (frees the keys of
 *                         requests whose server died mid-request).
 * @param cleanupInterval  How often expired keys are deleted.
 * @param cleanupBatchSize How many expired keys one delete statement removes.
 */
@ConfigurationProperties("payments.idempotency")
public record IdempotencyProperties(@DefaultValue("PT24H") Duration retention,
                                    @DefaultValue("PT30S") Duration lockTimeout,
                                    @DefaultValue("PT1M") Duration cleanupInterval,
                                    @DefaultValue("1000") int cleanupBatchSize) {

    public IdempotencyProperties {
        Settings.positive("payments.idempotency.cleanup-batch-size", cleanupBatchSize);
    }
}
