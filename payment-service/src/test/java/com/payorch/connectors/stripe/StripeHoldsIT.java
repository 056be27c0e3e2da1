package com.payorch.connectors.stripe;

import static com.payorch.connectors.stripe.StripeFixture.charge;
import static com.payorch.connectors.stripe.StripeFixture.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeStripe;
import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorCapability;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * Holds at Stripe (contract v3, "authorise now, capture later, cancel"), through the connector's gateway and its
 * webhook adapter, against {@link FakeStripe}: a manual PaymentIntent, its capture (in Stripe's units, under the
 * capture's own key), its release, Stripe's own release of an expired authorisation, and the events about each.
 */
class StripeHoldsIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final StripeFixture fixture = new StripeFixture();
    private final FakeStripe stripe = fixture.stripe;

    @AfterEach
    void close() {
        fixture.close();
    }

    private static ChargeRequest manual(long amount, String currency, String method) {
        return charge(unique("pay"), 1, amount, currency, method).capturing(CaptureMethod.MANUAL);
    }

    private GatewayOutcome authorise(ChargeRequest request) {
        GatewayOutcome outcome = fixture.gateway.submit(request).block(TIMEOUT);
        assertThat(outcome.status()).isEqualTo(GatewayStatus.AUTHORIZED);
        return outcome;
    }

    private ConnectorNotification lastEvent(String intentId, String type) {
        List<FakeStripe.SentEvent> events = stripe.eventsOf(intentId);
        FakeStripe.SentEvent event = events.get(events.size() - 1);
        assertThat(event.type()).isEqualTo(type);
        List<ConnectorNotification> parsed = fixture.receive(event.payload());
        assertThat(parsed).hasSize(1);
        return parsed.get(0);
    }

    @Test
    void aManualSubmitCreatesAManualPaymentIntentThatIsAuthorisedAndFoundSo() {
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_hold");

        GatewayOutcome outcome = authorise(request);

        assertThat(stripe.createdWith(request.idempotencyKey())).containsEntry("capture_method", "manual")
                .containsEntry("confirm", "true");
        Map<String, Object> intent = stripe.intent(outcome.reference());
        assertThat(intent).containsEntry("status", "requires_capture").containsEntry("amount_capturable", 12000L);
        StepVerifier.create(fixture.gateway.find(request.withReference(outcome.reference())))
                .assertNext(found -> assertThat(found.status()).isEqualTo(GatewayStatus.AUTHORIZED))
                .verifyComplete();
        assertThat(fixture.connector.capabilities()).contains(ConnectorCapability.CAPTURE);
    }

    @Test
    void anAutomaticSubmitStillSendsNoCaptureMethod() {
        ChargeRequest request = charge(unique("pay"), 1, 12000, "JPY", "pm_card_visa_auto");

        GatewayOutcome outcome = fixture.gateway.submit(request).block(TIMEOUT);

        assertThat(outcome.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(stripe.createdWith(request.idempotencyKey())).doesNotContainKey("capture_method");
    }

    @Test
    void amountCapturableUpdatedIsAnAuthorisationInIsoUnits() {
        ChargeRequest request = manual(50, "ISK", "pm_card_visa_isk");
        GatewayOutcome outcome = authorise(request);

        ConnectorNotification authorised = lastEvent(outcome.reference(), "payment_intent.amount_capturable_updated");

        assertThat(authorised.status()).isEqualTo(GatewayStatus.AUTHORIZED);
        assertThat(authorised.amount()).isEqualTo(50);
        assertThat(authorised.currency()).isEqualTo("ISK");
        assertThat(authorised.paymentId()).isEqualTo(request.paymentId());
        assertThat(authorised.attempt()).isEqualTo(1);
        assertThat(authorised.reference()).isEqualTo(outcome.reference());
    }

    @Test
    void aPartialCaptureSendsStripesUnitsUnderTheCapturesOwnKeyAndItsEventIsASuccessOfTheWholePayment() {
        ChargeRequest request = manual(50, "ISK", "pm_card_visa_partial");
        GatewayOutcome authorised = authorise(request);
        CaptureRequest capture = new CaptureRequest(request.withReference(authorised.reference()), 20, 1);

        GatewayOutcome captured = fixture.gateway.capture(capture).block(TIMEOUT);

        assertThat(captured.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(captured.reference()).isEqualTo(authorised.reference());
        assertThat(capture.idempotencyKey()).isNotEqualTo(request.idempotencyKey());
        assertThat(stripe.capturedWith(capture.idempotencyKey())).containsEntry("amount_to_capture", "2000");
        assertThat(stripe.intent(authorised.reference())).containsEntry("amount_received", 2000L)
                .containsEntry("amount_capturable", 0);
        ConnectorNotification succeeded = lastEvent(authorised.reference(), "payment_intent.succeeded");
        assertThat(succeeded.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(succeeded.amount()).as("the PaymentIntent's amount, the payment's").isEqualTo(50);
    }

    @Test
    void onlyTheCapturedAmountCanBeRefunded() {
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_refundpartial");
        GatewayOutcome authorised = authorise(request);
        fixture.gateway.capture(new CaptureRequest(request.withReference(authorised.reference()), 9000, 1))
                .block(TIMEOUT);

        StepVerifier.create(fixture.gateway.refund(new RefundRequest("re_" + unique("x"), request.paymentId(), 1,
                        authorised.reference(), 9001, "JPY", StripeFixture.MERCHANT, StripeGateway.NAME)))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ConnectorRefusedException.class)
                        .hasMessageContaining("amount_too_large"))
                .verify(TIMEOUT);
        RefundOutcome refunded = fixture.gateway.refund(new RefundRequest("re_" + unique("x"), request.paymentId(), 1,
                authorised.reference(), 9000, "JPY", StripeFixture.MERCHANT, StripeGateway.NAME)).block(TIMEOUT);
        assertThat(refunded.status()).isEqualTo(GatewayStatus.SUCCEEDED);
    }

    @Test
    void aCaptureWithoutARecordedIdFindsThePaymentIntentFirst() {
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_unrecorded");
        GatewayOutcome authorised = authorise(request);
        fixture.clock.advance(fixture.settings.getSearchDelay().plusSeconds(1));

        GatewayOutcome captured = fixture.gateway.capture(new CaptureRequest(request, 12000, 1)).block(TIMEOUT);

        assertThat(captured.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(captured.reference()).isEqualTo(authorised.reference());
        assertThat(stripe.searches()).isEqualTo(1);
        assertThat(stripe.capturesFor(request.paymentId())).isEqualTo(1);
    }

    @Test
    void aCaptureOrACancelOfAnAttemptStripeHasNoPaymentIntentForCannotTell() {
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_none");
        fixture.clock.advance(fixture.settings.getSearchDelay().plusSeconds(1));

        StepVerifier.create(fixture.gateway.capture(new CaptureRequest(request, 12000, 1)))
                .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(GatewayException.class)
                        .hasMessageContaining("cannot tell"))
                .verify(TIMEOUT);
        StepVerifier.create(fixture.gateway.cancel(new CancelRequest(request, null)))
                .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(GatewayException.class)
                        .hasMessageContaining("cannot tell"))
                .verify(TIMEOUT);
    }

    @Test
    void aCaptureResentAfterStripePrunedItsKeyIsTheCaptureAlreadyMadeNotAFailure() {
        stripe.forgetKeysAfter(Duration.ofHours(24));
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_pruned");
        GatewayOutcome authorised = authorise(request);
        CaptureRequest capture = new CaptureRequest(request.withReference(authorised.reference()), 12000, 1);
        fixture.gateway.capture(capture).block(TIMEOUT);
        stripe.advanceClock(Duration.ofHours(25));

        GatewayOutcome again = fixture.gateway.capture(capture).block(TIMEOUT);

        assertThat(again.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(stripe.capturesFor(request.paymentId())).isEqualTo(1);
    }

    @Test
    void aCancelReleasesTheHoldUnderItsOwnKeyWithStripesReasonAndItsEventIsACancellation() {
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_cancel");
        GatewayOutcome authorised = authorise(request);
        CancelRequest cancel = new CancelRequest(request.withReference(authorised.reference()),
                "requested_by_customer");

        GatewayOutcome released = fixture.gateway.cancel(cancel).block(TIMEOUT);

        assertThat(released.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(stripe.canceledWith(cancel.idempotencyKey()))
                .containsEntry("cancellation_reason", "requested_by_customer");
        assertThat(stripe.intent(authorised.reference())).containsEntry("status", "canceled")
                .containsEntry("amount_capturable", 0);
        ConnectorNotification cancelled = lastEvent(authorised.reference(), "payment_intent.canceled");
        assertThat(cancelled.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(cancelled.failureReason()).isEqualTo("requested_by_customer");
        assertThat(cancelled.paymentId()).isEqualTo(request.paymentId());
    }

    @Test
    void aReasonStripeDoesNotTakeIsNotSentAndTheHoldIsStillReleased() {
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_reason");
        GatewayOutcome authorised = authorise(request);

        GatewayOutcome released = fixture.gateway.cancel(new CancelRequest(request.withReference(
                authorised.reference()), "guest changed their dates")).block(TIMEOUT);

        assertThat(released.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(stripe.cancelsFor(request.paymentId())).isEqualTo(1);
    }

    @Test
    void aCancelOfAPaymentIntentAlreadyCanceledUnderAnotherKeyIsCancelledNotAnError() {
        stripe.forgetKeysAfter(Duration.ofHours(24));
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_twice");
        GatewayOutcome authorised = authorise(request);
        CancelRequest cancel = new CancelRequest(request.withReference(authorised.reference()), null);
        fixture.gateway.cancel(cancel).block(TIMEOUT);
        stripe.advanceClock(Duration.ofHours(25));

        GatewayOutcome again = fixture.gateway.cancel(cancel).block(TIMEOUT);

        assertThat(again.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(stripe.cancelsFor(request.paymentId())).isEqualTo(1);
    }

    @Test
    void aCancelWithoutARecordedIdFindsThePaymentIntentThenReleasesIt() {
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_findcancel");
        GatewayOutcome authorised = authorise(request);
        fixture.clock.advance(fixture.settings.getSearchDelay().plusSeconds(1));

        GatewayOutcome released = fixture.gateway.cancel(new CancelRequest(request, null)).block(TIMEOUT);

        assertThat(released.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(released.reference()).isEqualTo(authorised.reference());
        assertThat(stripe.intent(authorised.reference())).containsEntry("status", "canceled");
    }

    @Test
    void anExpiredAuthorisationIsACancellationReportedAsExpiredAndItsCaptureFailsSo() {
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_expired");
        GatewayOutcome authorised = authorise(request);

        stripe.expireAuthorization(authorised.reference());

        ConnectorNotification cancelled = lastEvent(authorised.reference(), "payment_intent.canceled");
        assertThat(cancelled.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(cancelled.failureReason()).isEqualTo("authorization_expired");
        GatewayOutcome capture = fixture.gateway.capture(new CaptureRequest(
                request.withReference(authorised.reference()), 12000, 1)).block(TIMEOUT);
        assertThat(capture.status()).isEqualTo(GatewayStatus.CAPTURE_FAILED);
        assertThat(capture.failureReason()).isEqualTo("authorization_expired");
        assertThat(stripe.capturesFor(request.paymentId())).isZero();
        StepVerifier.create(fixture.gateway.find(request.withReference(authorised.reference())))
                .assertNext(found -> assertThat(found.status()).isEqualTo(GatewayStatus.CANCELLED))
                .verifyComplete();
    }

    @Test
    void aCanceledAutomaticPaymentIntentIsReportedCancelledToo() {
        ChargeRequest request = charge(unique("pay"), 1, 12000, "JPY", "pm_card_processing_auto");
        GatewayOutcome processing = fixture.gateway.submit(request).block(TIMEOUT);
        fixture.gateway.cancel(new CancelRequest(request.withReference(processing.reference()), "abandoned"))
                .block(TIMEOUT);

        ConnectorNotification cancelled = lastEvent(processing.reference(), "payment_intent.canceled");

        assertThat(cancelled.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(cancelled.failureReason()).isEqualTo("abandoned");
    }

    @Test
    void anOrphanedHoldIsReleasedNotRefundedAndThatIsTheGiveBacksSuccess() {
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_orphan");
        GatewayOutcome authorised = authorise(request);
        RefundRequest giveBack = new RefundRequest("re_orphan_" + unique("x"), request.paymentId(), 1,
                authorised.reference(), 12000, "JPY", StripeFixture.MERCHANT, StripeGateway.NAME, true);

        RefundOutcome first = fixture.gateway.refund(giveBack).block(TIMEOUT);
        RefundOutcome again = fixture.gateway.refund(giveBack).block(TIMEOUT);

        assertThat(first.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(again.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(stripe.intent(authorised.reference())).containsEntry("status", "canceled");
        assertThat(stripe.cancelsFor(request.paymentId())).isEqualTo(1);
        assertThat(stripe.refundsOf(authorised.reference())).isEmpty();
    }

    @Test
    void anOrphanedCapturedHoldIsRefunded() {
        ChargeRequest request = manual(12000, "JPY", "pm_card_visa_orphancaptured");
        GatewayOutcome authorised = authorise(request);
        fixture.gateway.capture(new CaptureRequest(request.withReference(authorised.reference()), 12000, 1))
                .block(TIMEOUT);
        RefundRequest giveBack = new RefundRequest("re_orphan_" + unique("x"), request.paymentId(), 1,
                authorised.reference(), 12000, "JPY", StripeFixture.MERCHANT, StripeGateway.NAME, true);

        RefundOutcome refunded = fixture.gateway.refund(giveBack).block(TIMEOUT);

        assertThat(refunded.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(stripe.refundsOf(authorised.reference())).hasSize(1);
        assertThat(stripe.cancelsFor(request.paymentId())).isZero();
    }
}
