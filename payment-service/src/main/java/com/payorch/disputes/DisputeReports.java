package com.payorch.disputes;

import com.payorch.disputes.internal.DisputeStore;
import com.payorch.disputes.internal.DisputeStore.LockedPayment;
import com.payorch.events.EventStore;
import com.payorch.events.EventType;
import com.payorch.payments.PaymentNotFound;
import com.payorch.statemachine.DisputeEvent;
import com.payorch.statemachine.DisputeLifecycle;
import com.payorch.statemachine.DisputeStatus;
import com.payorch.support.Ids;
import com.payorch.support.Timestamps;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * The one write path of disputes: applies a connector's {@link DisputeReport}, once per report, in one transaction.
 * The report is claimed first (a second delivery finds it applied and answers the dispute as it stands), then the
 * payment row is locked, which orders this against every other dispute change and refund reservation of the payment.
 * The dispute is found by the connector's id of it, or created OPEN (`dispute.opened`), also by a report that closes
 * it (reports arrive out of order); a close is asked of the dispute state machine ({@link DisputeLifecycle}) and a
 * refused one (WON reported for a WON dispute) changes nothing. The payment's `amount_disputed` (OPEN and LOST) is
 * written in the same transaction, so a refund never gives back money a dispute holds.
 */
@Component
public class DisputeReports {

    private final DisputeStore disputes;
    private final EventStore events;
    private final TransactionalOperator transaction;
    private final Clock clock;
    private final DisputeLifecycle lifecycle = new DisputeLifecycle();

    public DisputeReports(DisputeStore disputes, EventStore events, TransactionalOperator transaction, Clock clock) {
        this.disputes = disputes;
        this.events = events;
        this.transaction = transaction;
        this.clock = clock;
    }

    /**
     * @return the dispute after the report (as it stands when the report was applied already)
     * @throws PaymentNotFound (as an error signal) when the report names no payment; nothing is written then, so a
     *                         later delivery of the report is applied
     */
    public Mono<Dispute> apply(DisputeReport report) {
        return transaction.transactional(Mono.defer(() -> {
            Instant now = Timestamps.now(clock);
            return disputes.claimReport(report.connector(), report.reportId(), now)
                    .flatMap(claimed -> claimed
                            ? applyClaimed(report, now)
                            : disputes.ofReport(report.connector(), report.reportId()));
        }));
    }

    private Mono<Dispute> applyClaimed(DisputeReport report, Instant now) {
        return disputes.lockPayment(report.paymentId())
                .switchIfEmpty(Mono.error(() -> new PaymentNotFound(report.paymentId())))
                .flatMap(payment -> findOrCreate(payment, report, now)
                        .flatMap(dispute -> applyKind(dispute, payment, report, now))
                        .flatMap(dispute -> disputes.linkReport(report.connector(), report.reportId(), dispute.id())
                                .then(disputes.refreshAmountDisputed(payment.id()))
                                .thenReturn(dispute)));
    }

    private Mono<Dispute> findOrCreate(LockedPayment payment, DisputeReport report, Instant now) {
        return disputes.insertOpen(Ids.withPrefix("dp_"), payment, report, now)
                .flatMap(created -> append(payment, EventType.DISPUTE_OPENED, created, now))
                .switchIfEmpty(Mono.defer(() -> disputes.lockByReference(report.connector(),
                        report.connectorReference())))
                .flatMap(dispute -> dispute.paymentId().equals(payment.id()) ? Mono.just(dispute)
                        : Mono.error(new IllegalArgumentException("dispute " + report.connector() + "/"
                                + report.connectorReference() + " is of payment " + dispute.paymentId()
                                + ", the report names " + payment.id())));
    }

    private Mono<Dispute> applyKind(Dispute dispute, LockedPayment payment, DisputeReport report, Instant now) {
        return switch (report.kind()) {
            case OPENED, UPDATED -> disputes.updateDetails(dispute, report.reason(), report.evidenceDueBy(), now);
            case WON -> close(dispute, payment, DisputeEvent.WIN, now);
            case LOST -> close(dispute, payment, DisputeEvent.LOSE, now);
        };
    }

    private Mono<Dispute> close(Dispute dispute, LockedPayment payment, DisputeEvent event, Instant now) {
        return lifecycle.next(dispute.status(), event)
                .flatMap(to -> disputes.moveTo(dispute, to, now)
                        .switchIfEmpty(Mono.error(() -> new IllegalStateException(
                                "dispute " + dispute.id() + " changed under its lock")))
                        .flatMap(moved -> append(payment, to == DisputeStatus.WON ? EventType.DISPUTE_WON
                                : EventType.DISPUTE_LOST, moved, now)))
                .defaultIfEmpty(dispute);
    }

    private Mono<Dispute> append(LockedPayment payment, EventType type, Dispute dispute, Instant now) {
        return events.append(payment.merchantId(), type, payment.id(), payment.bookingId(), resource(dispute), now)
                .thenReturn(dispute);
    }

    /** The dispute resource of contract v3, the data of its events. */
    static Map<String, Object> resource(Dispute dispute) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", dispute.id());
        data.put("paymentId", dispute.paymentId());
        data.put("amount", dispute.amount());
        data.put("currency", dispute.currency());
        data.put("status", dispute.status().name());
        data.put("reason", dispute.reason());
        data.put("connector", dispute.connector());
        data.put("connectorReference", dispute.connectorReference());
        data.put("evidenceDueBy", Timestamps.format(dispute.evidenceDueBy()));
        data.put("version", dispute.version());
        data.put("createdAt", Timestamps.format(dispute.createdAt()));
        data.put("updatedAt", Timestamps.format(dispute.updatedAt()));
        return data;
    }
}
