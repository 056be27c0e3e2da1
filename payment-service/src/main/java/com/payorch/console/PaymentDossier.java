package com.payorch.console;

import com.payorch.payments.Payment;
import com.payorch.payments.PaymentWithHistory;
import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Everything the payment page shows about one payment, read at one moment. */
public record PaymentDossier(PaymentWithHistory payment, @Nullable BookingLine booking, List<AttemptLine> attempts,
                             List<ReceiptLine> webhooks, List<EventLine> events, List<DeliveryLine> deliveries,
                             List<RefundLine> refunds, List<EmailLine> emails, List<DisputeLine> disputes,
                             List<TimelineEntry> timeline) {

    public record BookingLine(String id, String status, @Nullable String paymentId, @Nullable Instant activatedAt,
                              @Nullable Instant cancelledAt) {
    }

    public record AttemptLine(int number, String connector, @Nullable String reference, String status,
                              @Nullable String failureReason, @Nullable Instant orphanedAt, Instant createdAt) {
    }

    /** A gateway webhook received, its outcome, and how many redeliveries of it were answered as duplicates. */
    public record ReceiptLine(String webhookId, String gateway, String type, String outcome, @Nullable String detail,
                              Instant receivedAt, int duplicates, @Nullable Instant lastDuplicateAt) {
    }

    public record EventLine(String id, String type, Instant createdAt, @Nullable Instant dispatchedAt,
                            @Nullable Instant parkedAt, int attempts, @Nullable String lastError) {

        public String state() {
            return dispatchedAt != null ? "dispatched" : parkedAt != null ? "dead-lettered" : "waiting";
        }
    }

    public record DeliveryLine(String id, String eventId, String eventType, int attempt, String status,
                               @Nullable Integer responseStatus, @Nullable String error, Instant at,
                               boolean latestOfEvent) {
    }

    public record RefundLine(String id, long amount, String currency, String status, @Nullable String reason,
                             @Nullable String failureReason, String connector, @Nullable String connectorReference,
                             boolean countsAgainstPayment, Instant createdAt, Instant updatedAt) {
    }

    /**
     * A dispute of the payment's charge as its connector reported it, with its own timeline: the events
     * (dispute.opened, dispute.won, dispute.lost) written when it changed, oldest first. {@code evidenceOverdue}: OPEN
     * with its evidence due date passed when read (lost unless the connector already has the evidence).
     */
    public record DisputeLine(String id, long amount, String currency, String status, @Nullable String reason,
                              @Nullable Instant evidenceDueBy, boolean evidenceOverdue, String connector,
                              String connectorReference, Instant createdAt, Instant updatedAt,
                              List<DisputeEventLine> events) {
    }

    /** One event of a dispute: {@code type} is dispute.opened, dispute.won or dispute.lost. */
    public record DisputeEventLine(String eventId, String type, Instant at) {
    }

    public record EmailLine(String kind, String recipient, String messageId, @Nullable Instant sentAt) {
    }

    /**
     * What is still refundable: only captured money, less what refunds hold or gave back and what disputes hold
     * (OPEN and LOST: {@code amountDisputed}), as the refund flow counts it.
     */
    public long refundable() {
        long held = refunds.stream().filter(RefundLine::countsAgainstPayment)
                .filter(r -> !r.status().equals("FAILED")).mapToLong(RefundLine::amount).sum();
        return Math.max(0, payment.payment().hold().amountCaptured() - held - payment.payment().amountDisputed());
    }

    /** What a capture may take now: the held amount of an AUTHORIZED payment no cancel has claimed, else 0. */
    public long capturable() {
        Payment current = payment.payment();
        if (current.status() != PaymentStatus.AUTHORIZED || current.hold().cancelRequested()) {
            return 0;
        }
        return current.amount() - current.hold().amountCaptured();
    }

    /**
     * Whether the console offers to release the hold: a manual-capture payment, AUTHORIZED or not authorised yet, no
     * cancel recorded and no capture in flight (the flow refuses anything else; the page need not offer it).
     */
    public boolean cancellable() {
        Payment current = payment.payment();
        return current.manualCapture() && !current.hold().cancelRequested()
                && current.hold().captureAmount() == null
                && (current.status() == PaymentStatus.AUTHORIZED || PaymentStatus.UNSETTLED.contains(current.status()));
    }
}
