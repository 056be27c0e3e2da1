package com.payorch.disputes;

import com.payorch.disputes.internal.DisputeStore;
import com.payorch.statemachine.DisputeStatus;
import com.payorch.support.UnknownCursor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads of disputes for other modules (and the API). Every read is scoped to a merchant. */
@Component
public class DisputeQueries {

    private final DisputeStore disputes;

    public DisputeQueries(DisputeStore disputes) {
        this.disputes = disputes;
    }

    public Mono<Dispute> find(String merchantId, String disputeId) {
        return disputes.find(merchantId, disputeId);
    }

    /** The dispute {@code connector} knows as {@code connectorReference}, whichever merchant's payment it is about. */
    public Mono<Dispute> byConnectorReference(String connector, String connectorReference) {
        return disputes.byReference(connector, connectorReference);
    }

    /** The payment's disputes, newest first. */
    public Flux<Dispute> ofPayment(String merchantId, String paymentId) {
        return disputes.ofPayment(merchantId, paymentId);
    }

    /**
     * At most {@code limit} of the merchant's disputes (of {@code status} when given), newest first (created_at
     * desc, id desc), after the dispute {@code startingAfter} when given. Lists are walked by keyset, so ask for one
     * more than the page holds to learn whether more follow ({@link com.payorch.support.Page#of}). An unknown
     * {@code startingAfter} (another merchant's, or not of {@code status}) is {@link UnknownCursor}.
     */
    public Flux<Dispute> list(String merchantId, @Nullable DisputeStatus status, @Nullable String startingAfter,
                              int limit) {
        return disputes.list(merchantId, status, startingAfter, limit);
    }
}
