package com.payorch.connectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorCapability;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/**
 * What every connector promises the service, checked against its faithful fake: each connector's test extends this
 * class and says how to reach its fake. A submit is one charge that names its attempt; the same attempt submitted
 * again is the same charge; a look-up finds it (where the connector can look up); a refund sent twice is one refund;
 * a signed webhook is bound to the charge by its reference and a forged one does not verify; and every failure is
 * one of the three kinds, "not sent" and "refused" never after a charge, an ambiguous one resolved by the same key
 * without a second charge.
 */
public abstract class ConnectorContractTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** The ways a connector's answer can fail, as the fake plays them. */
    public enum Failure {
        /** The request never reaches the connector (connection refused). */
        NOT_SENT,
        /** A definite refusal that is not a decline (a revoked key). */
        REFUSED,
        /** The connector charges, then its answer is lost (a 5xx, a time-out, a reset). */
        AMBIGUOUS_AFTER_CHARGE,
        /** The connector fails before it charges, and says so only as a 5xx. */
        AMBIGUOUS_BEFORE_CHARGE
    }

    /** A webhook request as the connector sends it. */
    public record RawWebhook(HttpHeaders headers, byte[] body) {
    }

    /** The connector under test, talking to its fake. */
    protected abstract Connector connector();

    /** The merchant whose account at the fake the tests use. */
    protected abstract String merchantId();

    /** A payment method token the fake charges; a new one per call, so armed failures stay with one test. */
    protected abstract String chargeableToken();

    /** How many charges the fake holds for the payment (all attempts). */
    protected abstract long chargesAtTheFake(String paymentId);

    /**
     * Arms the fake to fail the next submit of {@code request} in this way and answers the request to send, or null
     * when this connector has no such failure (the test is then skipped).
     */
    protected abstract @Nullable ChargeRequest arm(Failure failure, ChargeRequest request);

    /** The gateway that meets {@code failure}: the connector's own unless the failure needs another (a closed port). */
    protected PaymentGateway gatewayFor(Failure failure) {
        return connector().gateway();
    }

    /** The connector's signed webhook saying the charge succeeded, for {@code merchantId()}'s endpoint. */
    protected abstract RawWebhook succeeded(GatewayOutcome charge, long amount, String currency);

    /** The same webhook signed with a secret that is not the merchant's. */
    protected abstract RawWebhook forged(GatewayOutcome charge, long amount, String currency);

    /** The connector settles the charge (a connector that refunds only settled charges); nothing by default. */
    protected void settle(GatewayOutcome charge) {
    }

    protected String currency() {
        return "EUR";
    }

    // ---- Holds (contract v3, "authorise now, capture later, cancel"). A connector that holds says so in holds() and
    // answers the three counts below from its fake; the hold tests are skipped for one that does not (yet).

    /** Whether the connector authorises manual-capture payments, captures and releases them. */
    protected boolean holds() {
        return false;
    }

    /** How many captures the fake holds for the payment (one per distinct capture key). */
    protected long capturesAtTheFake(String paymentId) {
        throw new UnsupportedOperationException("capturesAtTheFake");
    }

    /** The amount the fake has captured of the payment, in ISO 4217 minor units. */
    protected long capturedAtTheFake(String paymentId) {
        throw new UnsupportedOperationException("capturedAtTheFake");
    }

    /** How many releases (cancels) of the payment's authorisation the fake holds. */
    protected long cancelsAtTheFake(String paymentId) {
        throw new UnsupportedOperationException("cancelsAtTheFake");
    }

    /**
     * Arms the fake to take the next capture of the payment and then lose its answer (a 5xx, a time-out); false when
     * the fake cannot (that test is then skipped).
     */
    protected boolean armCaptureAnswerLost(String paymentId) {
        return false;
    }

    /**
     * The authorisation of a manual submit as the service would learn it: the submit's own answer when it says
     * AUTHORIZED, else (a connector that authorises asynchronously) after {@link #settle} and a look-up.
     */
    protected GatewayOutcome authorise(ChargeRequest manual) {
        GatewayOutcome outcome = submit(connector().gateway(), manual);
        if (outcome.status() != GatewayStatus.AUTHORIZED) {
            settle(outcome);
            outcome = connector().gateway().find(manual.withReference(outcome.reference())).block(WAIT);
        }
        return outcome;
    }

    /** A loopback port nothing listens on: a connection to it is refused, the request never leaves. */
    protected static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    protected ChargeRequest newRequest() {
        String paymentId = "pay_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        return new ChargeRequest(paymentId, 1, 4200, currency(), chargeableToken(), merchantId(), connector().name());
    }

    protected ChargeRequest newManualRequest() {
        return newRequest().capturing(CaptureMethod.MANUAL);
    }

    private GatewayOutcome submit(PaymentGateway gateway, ChargeRequest request) {
        return gateway.submit(request).block(WAIT);
    }

    @Test
    void aSubmitIsOneChargeThatNamesItsAttempt() {
        ChargeRequest request = newRequest();

        GatewayOutcome outcome = submit(connector().gateway(), request);

        assertThat(outcome.paymentId()).isEqualTo(request.paymentId());
        assertThat(outcome.attempt()).isEqualTo(1);
        assertThat(outcome.connector()).isEqualTo(connector().name());
        assertThat(outcome.reference()).isNotBlank();
        assertThat(outcome.status()).isIn(GatewayStatus.SUCCEEDED, GatewayStatus.PROCESSING);
        assertThat(chargesAtTheFake(request.paymentId())).isEqualTo(1);
    }

    @Test
    void theSameAttemptSubmittedAgainIsTheSameCharge() {
        ChargeRequest request = newRequest();

        GatewayOutcome first = submit(connector().gateway(), request);
        GatewayOutcome again = submit(connector().gateway(), request);

        assertThat(again.reference()).isEqualTo(first.reference());
        assertThat(chargesAtTheFake(request.paymentId())).isEqualTo(1);
    }

    @Test
    void aLookUpFindsTheAttemptsChargeOrTheConnectorSaysItCannotLookUp() {
        ChargeRequest request = newRequest();
        GatewayOutcome charged = submit(connector().gateway(), request);

        if (connector().capabilities().contains(ConnectorCapability.LOOKUP)) {
            GatewayOutcome found = connector().gateway().find(request).block(WAIT);
            assertThat(found).isNotNull();
            assertThat(found.reference()).isEqualTo(charged.reference());
            assertThat(found.attempt()).isEqualTo(1);
            assertThat(connector().gateway().find(newRequest()).block(WAIT))
                    .as("no charge for an attempt never sent").isNull();
        } else {
            // Empty would be evidence that nothing was charged (contract v3): a connector that cannot look up says so.
            assertThatThrownBy(() -> connector().gateway().find(request).block(WAIT))
                    .as("a connector without LOOKUP cannot tell")
                    .isInstanceOf(GatewayException.class);
        }
    }

    @Test
    void aRefundSentTwiceIsOneRefund() {
        assumeTrue(connector().capabilities().contains(ConnectorCapability.REFUNDS), "the connector refunds");
        ChargeRequest request = newRequest();
        GatewayOutcome charged = submit(connector().gateway(), request);
        settle(charged);
        RefundRequest refund = new RefundRequest("re_" + UUID.randomUUID().toString().replace("-", ""),
                request.paymentId(), 1, charged.reference(), 1000, request.currency(), merchantId(),
                connector().name());

        RefundOutcome first = connector().gateway().refund(refund).block(WAIT);
        RefundOutcome again = connector().gateway().refund(refund).block(WAIT);

        assertThat(first.refundId()).isEqualTo(refund.refundId());
        assertThat(first.status()).isIn(GatewayStatus.PROCESSING, GatewayStatus.SUCCEEDED);
        assertThat(again.reference()).isEqualTo(first.reference());
    }

    @Test
    void aSignedWebhookIsBoundToTheChargeByItsReferenceAndAForgedOneDoesNotVerify() {
        ChargeRequest request = newRequest();
        GatewayOutcome charged = submit(connector().gateway(), request);
        ConnectorWebhooks endpoint = connector().webhooksFor(connector().webhooksPerMerchant() ? merchantId() : null);
        RawWebhook webhook = succeeded(charged, request.amount(), request.currency());
        RawWebhook forged = forged(charged, request.amount(), request.currency());

        assertThat(endpoint.verify(webhook.headers(), webhook.body())).isTrue();
        List<ConnectorNotification> notifications = endpoint.parse(webhook.headers(), webhook.body());
        assertThat(notifications).singleElement().satisfies(notification -> {
            assertThat(notification.reference()).isEqualTo(charged.reference());
            assertThat(notification.status()).isEqualTo(GatewayStatus.SUCCEEDED);
            assertThat(notification.amount()).isEqualTo(request.amount());
            assertThat(notification.currency()).isEqualTo(request.currency());
            assertThat(notification.refundId()).isNull();
        });
        boolean forgedAccepted = endpoint.verify(forged.headers(), forged.body())
                && !endpoint.parse(forged.headers(), forged.body()).isEmpty();
        assertThat(forgedAccepted).as("a forged webhook is neither verified nor parsed into an outcome").isFalse();
    }

    @Test
    void aRequestThatNeverLeftIsNotSentAndChargesNothing() {
        ChargeRequest request = arm(Failure.NOT_SENT, newRequest());
        assumeTrue(request != null, "the connector has this failure");

        assertThatThrownBy(() -> submit(gatewayFor(Failure.NOT_SENT), request))
                .isInstanceOf(GatewayUnavailableException.class)
                .isNotInstanceOf(ConnectorRefusedException.class);
        assertThat(chargesAtTheFake(request.paymentId())).isZero();
    }

    @Test
    void aDefiniteRefusalIsRefusedAndChargesNothing() {
        ChargeRequest request = arm(Failure.REFUSED, newRequest());
        assumeTrue(request != null, "the connector has this failure");

        assertThatThrownBy(() -> submit(gatewayFor(Failure.REFUSED), request))
                .isInstanceOf(ConnectorRefusedException.class);
        assertThat(chargesAtTheFake(request.paymentId())).isZero();
    }

    @Test
    void anAnswerLostAfterTheChargeIsAmbiguousAndTheSameKeyDoesNotChargeAgain() {
        ambiguousIsResolvedWithOneCharge(Failure.AMBIGUOUS_AFTER_CHARGE);
    }

    @Test
    void aFailureBeforeTheChargeThatSaysOnlyA5xxIsAmbiguousAndTheSameKeyChargesOnce() {
        ambiguousIsResolvedWithOneCharge(Failure.AMBIGUOUS_BEFORE_CHARGE);
    }

    @Test
    void aManualSubmitAuthorisesAndACaptureSentTwiceIsOneCapture() {
        assumeTrue(holds(), "the connector holds");
        ChargeRequest manual = newManualRequest();
        GatewayOutcome authorised = authorise(manual);
        assertThat(authorised.status()).isEqualTo(GatewayStatus.AUTHORIZED);
        assertThat(capturesAtTheFake(manual.paymentId())).isZero();
        CaptureRequest capture = new CaptureRequest(manual.withReference(authorised.reference()), manual.amount(), 1);

        GatewayOutcome first = connector().gateway().capture(capture).block(WAIT);
        GatewayOutcome again = connector().gateway().capture(capture).block(WAIT);

        assertThat(first.status()).isIn(GatewayStatus.SUCCEEDED, GatewayStatus.PROCESSING);
        assertThat(first.attempt()).isEqualTo(1);
        assertThat(again.status()).isIn(GatewayStatus.SUCCEEDED, GatewayStatus.PROCESSING);
        assertThat(capturesAtTheFake(manual.paymentId())).isEqualTo(1);
        assertThat(capturedAtTheFake(manual.paymentId())).isEqualTo(manual.amount());
    }

    @Test
    void aPartialCaptureTakesOnlyItsAmount() {
        assumeTrue(holds(), "the connector holds");
        ChargeRequest manual = newManualRequest();
        GatewayOutcome authorised = authorise(manual);

        connector().gateway().capture(new CaptureRequest(manual.withReference(authorised.reference()),
                manual.amount() - 1000, 1)).block(WAIT);

        assertThat(capturesAtTheFake(manual.paymentId())).isEqualTo(1);
        assertThat(capturedAtTheFake(manual.paymentId())).isEqualTo(manual.amount() - 1000);
    }

    @Test
    void aCancelSentTwiceReleasesTheHoldOnceAndNothingIsCaptured() {
        assumeTrue(holds(), "the connector holds");
        ChargeRequest manual = newManualRequest();
        GatewayOutcome authorised = authorise(manual);
        CancelRequest cancel = new CancelRequest(manual.withReference(authorised.reference()), "requested_by_customer");

        GatewayOutcome first = connector().gateway().cancel(cancel).block(WAIT);
        GatewayOutcome again = connector().gateway().cancel(cancel).block(WAIT);

        assertThat(first.status()).isIn(GatewayStatus.CANCELLED, GatewayStatus.PROCESSING);
        assertThat(again.status()).isIn(GatewayStatus.CANCELLED, GatewayStatus.PROCESSING);
        assertThat(cancelsAtTheFake(manual.paymentId())).isEqualTo(1);
        assertThat(capturedAtTheFake(manual.paymentId())).isZero();
    }

    @Test
    void aCaptureWhoseAnswerWasLostIsResentWithTheSameKeyAndCapturesOnce() {
        assumeTrue(holds(), "the connector holds");
        ChargeRequest manual = newManualRequest();
        GatewayOutcome authorised = authorise(manual);
        assumeTrue(armCaptureAnswerLost(manual.paymentId()), "the fake can lose a capture's answer");
        CaptureRequest capture = new CaptureRequest(manual.withReference(authorised.reference()), manual.amount(), 1);

        assertThatThrownBy(() -> connector().gateway().capture(capture).block(WAIT))
                .as("neither 'not sent' nor 'refused': the capture may exist")
                .isExactlyInstanceOf(GatewayException.class);
        try {
            connector().gateway().capture(capture).block(WAIT);
        } catch (GatewayException stillAmbiguous) {
            assertThat(stillAmbiguous).isExactlyInstanceOf(GatewayException.class);
        }
        assertThat(capturesAtTheFake(manual.paymentId())).isEqualTo(1);
        assertThat(capturedAtTheFake(manual.paymentId())).isEqualTo(manual.amount());
    }

    private void ambiguousIsResolvedWithOneCharge(Failure failure) {
        ChargeRequest request = arm(failure, newRequest());
        assumeTrue(request != null, "the connector has this failure");

        assertThatThrownBy(() -> submit(gatewayFor(failure), request))
                .as("neither 'not sent' nor 'refused': the charge may exist")
                .isExactlyInstanceOf(GatewayException.class);
        try {
            submit(connector().gateway(), request);
        } catch (GatewayException stillAmbiguous) {
            // A connector that saved the failed answer under the key answers it again: still no second charge.
            assertThat(stillAmbiguous).isExactlyInstanceOf(GatewayException.class);
        }
        assertThat(chargesAtTheFake(request.paymentId())).isEqualTo(1);
    }
}
