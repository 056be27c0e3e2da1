package com.payorch.gateway;

import reactor.core.publisher.Mono;

/**
 * The port to a payment connector. Every answer is a {@link GatewayOutcome} that names the attempt it is about.
 * <ul>
 *   <li>{@link #submit} must be idempotent on {@link ChargeRequest#idempotencyKey()}: the same attempt submitted
 *       again returns the charge already made, never a second one. {@link GatewayUnavailableException}: the
 *       request certainly did not reach the connector; any other {@link GatewayException}: the outcome is unknown.
 *   <li>{@link #find} asks what became of an attempt. Empty is evidence: the connector <em>confirms</em> it holds no
 *       charge for the attempt (a give-up may FAIL the payment on it). A connector that cannot tell (no look-up, a
 *       search not yet trustworthy, a look-up that failed) answers a {@link GatewayException}: no evidence.
 *   <li>{@link #cancelByReference} asks the connector to cancel whatever the attempt may have authorised, named by
 *       the service's own reference (Adyen {@code POST /cancels} with {@code paymentReference}); completes when the
 *       connector accepted the request: its confirmation comes later as a notification (a FAILED outcome with
 *       reason {@code gateway_unreachable}).
 *   <li>{@link #refund} must be idempotent on {@link RefundRequest#idempotencyKey()} (the refund id): the same
 *       refund sent again returns the refund already made. Same exceptions as {@link #submit}.
 *   <li>{@link #findRefund} asks what became of a refund: empty when the connector confirms it holds none with that
 *       id; a {@link GatewayException} when it cannot tell.
 * </ul>
 * A connector that cannot refund yet answers {@link ConnectorRefusedException} (certainly not refunded).
 * <p>Holds (a {@link ChargeRequest#manualCapture() manual-capture} submit answers {@link GatewayStatus#AUTHORIZED}):
 * <ul>
 *   <li>{@link #capture} must be idempotent on {@link CaptureRequest#idempotencyKey()}: the same capture sent again is
 *       the same capture. Answers SUCCEEDED (captured), PROCESSING (accepted; the connector's notification settles
 *       it) or CAPTURE_FAILED (refused: the money is still held). Exceptions as for {@link #submit}.
 *   <li>{@link #cancel} releases the hold, idempotent on {@link CancelRequest#idempotencyKey()}; by the recorded
 *       reference, else by the service's own reference. Answers CANCELLED (released) or PROCESSING (accepted; the
 *       connector's notification confirms it). Exceptions as for {@link #submit}.
 * </ul>
 * A connector that cannot hold answers {@link ConnectorRefusedException} to both (the defaults).
 * <p>Customer action (a submit with a {@link ChargeRequest#returnUrl()} may answer
 * {@link GatewayStatus#REQUIRES_ACTION} with the customer's page): {@link #complete} asks for the attempt's outcome
 * after the customer came back: any status, REQUIRES_ACTION again when the connector still waits. Idempotent on
 * {@link CompleteRequest#idempotencyKey()}. The default looks the attempt up ({@link #find}); empty there is "no
 * such charge" and is answered as an error here (completion is never evidence of anything).
 */
public interface PaymentGateway {

    /** The connector's name as the API shows it (`sandbox`, `stripe`, `adyen`). */
    String name();

    Mono<GatewayOutcome> submit(ChargeRequest request);

    Mono<GatewayOutcome> find(ChargeRequest request);

    /** A connector that cannot cancel by reference answers {@link ConnectorRefusedException} (the default). */
    default Mono<Void> cancelByReference(ChargeRequest request) {
        return Mono.error(new ConnectorRefusedException("connector " + name() + " cannot cancel by reference"));
    }

    default Mono<GatewayOutcome> capture(CaptureRequest request) {
        return Mono.error(new ConnectorRefusedException("connector " + name() + " cannot capture a hold"));
    }

    default Mono<GatewayOutcome> cancel(CancelRequest request) {
        return Mono.error(new ConnectorRefusedException("connector " + name() + " cannot release a hold"));
    }

    default Mono<GatewayOutcome> complete(CompleteRequest request) {
        return find(request.charge())
                .switchIfEmpty(Mono.error(() -> new GatewayException("connector " + name() + " holds no charge for "
                        + request.charge().idempotencyKey())));
    }

    default Mono<RefundOutcome> refund(RefundRequest request) {
        return Mono.error(new ConnectorRefusedException("connector " + name() + " does not refund through this"
                + " service yet"));
    }

    /** A connector that cannot look refunds up answers that it cannot tell (no evidence), never "none". */
    default Mono<RefundOutcome> findRefund(RefundRequest request) {
        return Mono.error(new GatewayException("connector " + name() + " cannot look refund " + request.refundId()
                + " up"));
    }
}
