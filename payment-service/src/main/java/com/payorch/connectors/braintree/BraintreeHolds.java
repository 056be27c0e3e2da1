package com.payorch.connectors.braintree;

import com.braintreegateway.Result;
import com.braintreegateway.Transaction;
import com.braintreegateway.TransactionGateway;
import com.braintreegateway.ValidationError;
import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Braintree's holds, on one merchant's {@link TransactionGateway} (called on the connector's own scheduler):
 * <ul>
 *   <li>a capture is `PUT …/transactions/{id}/submit_for_settlement` with the amount (less than authorised is a
 *       partial capture: Braintree releases the rest, and the transaction's `amount` becomes the amount settled);</li>
 *   <li>a release is `PUT …/transactions/{id}/void`;</li>
 *   <li>an orphaned charge Braintree has not settled yet is given back by a void, not a refund (Braintree refunds
 *       only settled sales).</li>
 * </ul>
 * The transaction is the one recorded for the attempt, else the sale found by the attempt's `orderId`. Braintree has
 * no idempotency keys, so each of these first reads the transaction and answers what it already shows.
 */
final class BraintreeHolds {

    /** A sale whose money was taken (or, `settlement_pending`, is being taken). */
    static final Set<Transaction.Status> CAPTURED = EnumSet.of(Transaction.Status.SUBMITTED_FOR_SETTLEMENT,
            Transaction.Status.SETTLING, Transaction.Status.SETTLED, Transaction.Status.SETTLEMENT_CONFIRMED,
            Transaction.Status.SETTLEMENT_PENDING);

    /** A sale that holds nothing any more: released by a void, or lapsed. */
    static final Set<Transaction.Status> RELEASED = EnumSet.of(Transaction.Status.VOIDED,
            Transaction.Status.AUTHORIZATION_EXPIRED);

    /** Braintree voids only these (and, for PayPal, `settlement_pending`, which a card hold never is). */
    static final Set<Transaction.Status> VOIDABLE = EnumSet.of(Transaction.Status.AUTHORIZED,
            Transaction.Status.SUBMITTED_FOR_SETTLEMENT);

    private BraintreeHolds() {
    }

    static GatewayOutcome capture(TransactionGateway braintree, CaptureRequest request, String about) {
        ChargeRequest charge = request.charge();
        BigDecimal amount = BraintreeAmounts.decimal(request.amount(), charge.currency());
        Transaction held = transaction(braintree, charge, about);
        // A capture resent after its answer was lost must answer the capture made, not send a second one: Braintree
        // has no idempotency key, and would refuse the second submit_for_settlement (91507), which reads as a failed
        // capture of money it took. So a transaction already submitted for settlement answers for itself.
        Optional<GatewayOutcome> captured = alreadyCaptured(charge, held, amount, about);
        if (captured.isPresent()) {
            return captured.get();
        }
        Result<Transaction> result = braintree.submitForSettlement(held.getId(), amount);
        Transaction answered = result.isSuccess() ? result.getTarget() : result.getTransaction();
        if (answered != null && answered.getId() != null) {
            return alreadyCaptured(charge, answered, amount, about)
                    .orElseGet(() -> captureFailed(charge, answered, BraintreeStatuses.of(answered, true)));
        }
        // Refused. Another sender of the same capture may have got there first: look once more before saying so.
        Transaction now = braintree.find(held.getId());
        return alreadyCaptured(charge, now, amount, about)
                .orElseGet(() -> captureFailed(charge, now, new MappedStatus(GatewayStatus.CAPTURE_FAILED,
                        "capture_refused: " + codes(result) + " (transaction " + status(now) + ")")));
    }

    static GatewayOutcome cancel(TransactionGateway braintree, CancelRequest request, String about) {
        ChargeRequest charge = request.charge();
        Transaction held = transaction(braintree, charge, about);
        Optional<GatewayOutcome> settled = releasedOrTaken(charge, held);
        if (settled.isPresent()) {
            return settled.get();
        }
        Result<Transaction> result = braintree.voidTransaction(held.getId());
        Transaction answered = result.isSuccess() ? result.getTarget() : result.getTransaction();
        Transaction now = answered != null && answered.getId() != null ? answered : braintree.find(held.getId());
        return releasedOrTaken(charge, now).orElseThrow(() -> new GatewayException(about + ": Braintree did not void"
                + " transaction " + now.getId() + " (" + codes(result) + ", status " + status(now) + ")"));
    }

    /**
     * An orphaned charge given back whole while Braintree has not settled it: voided (or found voided, or lapsed),
     * the sale as it is now. Empty when the sale is settled or settling: only a refund gives that back.
     */
    static Optional<Transaction> voidUnsettled(TransactionGateway braintree, String saleId, String about) {
        Transaction sale = braintree.find(saleId);
        if (RELEASED.contains(sale.getStatus())) {
            return Optional.of(sale);
        }
        if (!VOIDABLE.contains(sale.getStatus())) {
            return Optional.empty();
        }
        Result<Transaction> result = braintree.voidTransaction(saleId);
        Transaction now = result.isSuccess() && result.getTarget() != null ? result.getTarget()
                : braintree.find(saleId);
        if (RELEASED.contains(now.getStatus())) {
            return Optional.of(now);
        }
        if (VOIDABLE.contains(now.getStatus())) {
            throw new ConnectorRefusedException(about + ": Braintree did not void sale " + saleId + " ("
                    + codes(result) + ")");
        }
        return Optional.empty();
    }

    /** The orphaned sale when it holds nothing any more (voided, or lapsed): its give-back is done. */
    static Optional<Transaction> released(TransactionGateway braintree, String saleId) {
        Transaction sale = braintree.find(saleId);
        return RELEASED.contains(sale.getStatus()) ? Optional.of(sale) : Optional.empty();
    }

    /**
     * What a release finds already decided: released or lapsed → CANCELLED; captured (by someone else: the service
     * never sends a release after its capture) → the money was taken, and that is what the service must hear;
     * declined → FAILED. Empty while Braintree may still void it.
     */
    private static Optional<GatewayOutcome> releasedOrTaken(ChargeRequest charge, Transaction transaction) {
        MappedStatus mapped = BraintreeStatuses.of(transaction, true);
        return switch (mapped.status()) {
            case CANCELLED, SUCCEEDED, FAILED -> Optional.of(outcome(charge, transaction, mapped));
            default -> Optional.empty();
        };
    }

    /**
     * The captured sale's outcome when it was captured for this amount; a sale captured for another amount was not
     * captured by this request (by hand in Braintree's Control Panel?): no evidence for this capture, so ambiguous.
     */
    private static Optional<GatewayOutcome> alreadyCaptured(ChargeRequest charge, Transaction transaction,
                                                            BigDecimal amount, String about) {
        if (!CAPTURED.contains(transaction.getStatus())) {
            return Optional.empty();
        }
        if (transaction.getAmount() == null || transaction.getAmount().compareTo(amount) != 0) {
            throw new GatewayException(about + ": transaction " + transaction.getId() + " is already "
                    + status(transaction) + " for " + transaction.getAmount() + ", not " + amount
                    + ": not this capture; look at it in Braintree's Control Panel");
        }
        GatewayStatus status = transaction.getStatus() == Transaction.Status.SETTLEMENT_PENDING
                ? GatewayStatus.PROCESSING : GatewayStatus.SUCCEEDED;
        return Optional.of(outcome(charge, transaction, new MappedStatus(status, null)));
    }

    private static GatewayOutcome captureFailed(ChargeRequest charge, Transaction transaction, MappedStatus why) {
        String reason = why.failureReason() != null ? why.failureReason() : "capture_refused: " + status(transaction);
        return outcome(charge, transaction, new MappedStatus(GatewayStatus.CAPTURE_FAILED,
                reason.length() > 200 ? reason.substring(0, 200) : reason));
    }

    /** The attempt's sale: by its recorded id, else by its `orderId`; a look-up that finds none cannot act. */
    static Transaction transaction(TransactionGateway braintree, ChargeRequest charge, String about) {
        if (charge.reference() != null) {
            return braintree.find(charge.reference());
        }
        Supplier<GatewayException> none = () -> new GatewayException(about + ": no transaction id recorded and no"
                + " sale with order id " + charge.idempotencyKey() + " found (yet: Braintree's search may lag)");
        return BraintreeGateway.byOrderId(braintree, charge.idempotencyKey(), Transaction.Type.SALE, null)
                .orElseThrow(none);
    }

    private static GatewayOutcome outcome(ChargeRequest charge, Transaction transaction, MappedStatus mapped) {
        return new GatewayOutcome(charge.paymentId(), charge.attempt(), BraintreeGateway.NAME, transaction.getId(),
                mapped.status(), mapped.failureReason());
    }

    static String status(Transaction transaction) {
        return transaction.getStatus() == null ? "unknown"
                : transaction.getStatus().name().toLowerCase(Locale.ROOT);
    }

    static String codes(@Nullable Result<Transaction> result) {
        if (result == null || result.getErrors() == null) {
            return "no validation errors";
        }
        String codes = result.getErrors().getAllDeepValidationErrors().stream()
                .map(BraintreeHolds::code).collect(Collectors.joining(", "));
        return codes.isEmpty() ? String.valueOf(result.getMessage()) : codes;
    }

    private static String code(ValidationError error) {
        return error.getCode() == null ? String.valueOf(error.getMessage())
                : error.getCode().code + " " + error.getMessage();
    }
}
