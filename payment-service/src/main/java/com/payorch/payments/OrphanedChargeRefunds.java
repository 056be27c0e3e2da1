package com.payorch.payments;

import reactor.core.publisher.Mono;

/**
 * Refunds an orphaned charge (a superseded attempt that took the money), inside the caller's transaction: at most
 * once per attempt, for the whole amount. Implemented by the refunds module, which depends on payments; declared
 * here so that payments does not depend on refunds.
 */
public interface OrphanedChargeRefunds {

    /** Empty when the attempt's refund exists already. */
    Mono<?> createForOrphan(Payment payment, int attempt, String connector);
}
