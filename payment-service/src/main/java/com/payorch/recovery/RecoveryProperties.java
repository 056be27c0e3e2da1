package com.payorch.recovery;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * `payments.recovery.pending-after`: PENDING payments not submitted by then are resubmitted.
 * `payments.recovery.processing-after`: PROCESSING payments with no outcome by then are settled by asking the gateway.
 * `payments.recovery.give-up-after`: a payment still PENDING this long after its attempt began becomes FAILED
 * (`gateway_unreachable`), which frees its booking.
 * `payments.recovery.interval`: how often both jobs look; `batch-size`: how many payments one look takes.
 * `payments.recovery.claim-retention` (PT1H): a lease in `work_claims` that ran out longer ago than this is deleted
 *  by the retention job (a run-out lease means the same as none; this only keeps the table small).
 */
@ConfigurationProperties("payments.recovery")
public record RecoveryProperties(Duration pendingAfter, Duration processingAfter, Duration giveUpAfter,
                                 Duration interval, int batchSize, Duration claimRetention) {

    public RecoveryProperties {
        giveUpAfter = giveUpAfter != null ? giveUpAfter : Duration.ofHours(24);
        pendingAfter = pendingAfter != null ? pendingAfter : Duration.ofSeconds(30);
        processingAfter = processingAfter != null ? processingAfter : Duration.ofMinutes(5);
        interval = interval != null ? interval : Duration.ofSeconds(5);
        batchSize = batchSize > 0 ? batchSize : 20;
        claimRetention = claimRetention != null ? claimRetention : Duration.ofHours(1);
    }
}
