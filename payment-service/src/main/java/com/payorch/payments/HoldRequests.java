package com.payorch.payments;

import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.statemachine.PaymentStatus;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Sends what a hold's payment recorded to its connector: the capture in flight of a CAPTURING payment, the release of
 * a payment whose cancel won. Both carry their own connector idempotency key, so a send repeated after a lost answer
 * (by the client's retry of its request, or by recovery) is the same capture or cancel, never a second one. The
 * answer is an outcome for {@link GatewayOutcomes}; empty when the connector could not be reached (recovery sends it
 * later). A lost answer is an error: the caller keeps what it recorded and sends again.
 */
@Component
public class HoldRequests {

    /** The reason a capture failed when the connector refused to capture (it cannot, or not this one). */
    public static final String CAPTURE_REFUSED = "capture_refused";

    private static final Logger log = LoggerFactory.getLogger(HoldRequests.class);

    private final PaymentGateway gateway;
    private final AttemptReferences references;

    public HoldRequests(PaymentGateway gateway, AttemptReferences references) {
        this.gateway = gateway;
        this.references = references;
    }

    /** Whether {@code payment} has a capture recorded and not settled: {@link #sendCapture} has something to send. */
    public static boolean captureInFlight(Payment payment) {
        return payment.status() == PaymentStatus.CAPTURING && payment.hold().captureAmount() != null;
    }

    /** Whether {@code payment} has a cancel recorded and is not settled: {@link #sendCancel} has something to send. */
    public static boolean cancelInFlight(Payment payment) {
        return payment.hold().cancelRequested() && (payment.status() == PaymentStatus.AUTHORIZED
                || payment.status() == PaymentStatus.REQUIRES_ACTION
                || PaymentStatus.UNSETTLED.contains(payment.status()));
    }

    public Mono<Optional<GatewayOutcome>> sendCapture(Payment capturing) {
        if (!captureInFlight(capturing)) {
            return Mono.just(Optional.empty());
        }
        return charge(capturing).flatMap(charge -> gateway.capture(new CaptureRequest(charge,
                                capturing.hold().captureAmount(), capturing.hold().captures()))
                        .map(Optional::of)
                        .onErrorResume(ConnectorRefusedException.class, refused -> {
                            log.warn("Connector {} refused capture {} of payment {}: {}", capturing.connector(),
                                    capturing.hold().captures(), capturing.id(), refused.getMessage());
                            return Mono.just(Optional.of(new GatewayOutcome(capturing.id(), capturing.attempt(),
                                    capturing.connector(), referenceOr(charge), GatewayStatus.CAPTURE_FAILED,
                                    CAPTURE_REFUSED)));
                        }))
                .onErrorResume(GatewayUnavailableException.class, e -> {
                    log.warn("Capture of payment {} not sent now ({}); recovery sends it", capturing.id(),
                            e.getMessage());
                    return Mono.just(Optional.empty());
                });
    }

    public Mono<Optional<GatewayOutcome>> sendCancel(Payment payment) {
        if (!cancelInFlight(payment)) {
            return Mono.just(Optional.empty());
        }
        return charge(payment).flatMap(charge -> awaitingConfirmation(payment, charge)
                        .then(gateway.cancel(new CancelRequest(charge, payment.hold().cancelReason()))))
                // An accepted cancel says nothing of the charge (its reference may be the cancel's own): only the
                // connector's confirmation, or a released answer, settles the payment.
                .map(outcome -> outcome.status() == GatewayStatus.PROCESSING ? Optional.<GatewayOutcome>empty()
                        : Optional.of(outcome))
                .onErrorResume(GatewayUnavailableException.class, e -> {
                    log.warn("Release of payment {} not sent now ({}); recovery sends it", payment.id(),
                            e.getMessage());
                    return Mono.just(Optional.empty());
                });
    }

    /**
     * A release by the service's own reference (no charge reference recorded yet) is confirmed by a notification that
     * may name no attempt: the attempt is marked as awaiting it, as recovery's cancel by reference does, so the
     * confirmation binds to it.
     */
    private Mono<Void> awaitingConfirmation(Payment payment, ChargeRequest charge) {
        return charge.reference() != null ? Mono.empty()
                : references.needsAttention(payment.id(), payment.attempt(), AttemptReferences.CANCEL_REQUESTED);
    }

    private Mono<ChargeRequest> charge(Payment payment) {
        return references.referenceOf(payment.id(), payment.attempt())
                .map(reference -> payment.chargeRequest().withReference(reference))
                .defaultIfEmpty(payment.chargeRequest());
    }

    private static String referenceOr(ChargeRequest charge) {
        return charge.reference() != null ? charge.reference() : charge.idempotencyKey();
    }
}
