package com.payorch.connectors.stripe;

import static com.payorch.connectors.stripe.StripeFixture.charge;
import static com.payorch.connectors.stripe.StripeFixture.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeStripe;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * Issue 22 finding 3 (and 1, on Stripe's side): what Stripe's look-up may be taken to confirm. A recorded
 * PaymentIntent id is retrieved by id, never searched for; an empty search is "no charge" only after Stripe's search
 * delay; a failed look-up is no evidence; and the fake forgets keys as Stripe does after 24 hours.
 */
class StripeLookUpIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final StripeFixture fixture = new StripeFixture();
    private final FakeStripe stripe = fixture.stripe;

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void aRecordedPaymentIntentIsRetrievedByIdAndNeverSearchedFor() {
        stripe.searchIndexDelay(Duration.ofHours(1));
        ChargeRequest request = charge(unique("pay"), 1, 12000, "JPY", "pm_card_visa_lookup");
        GatewayOutcome submitted = fixture.gateway.submit(request).block(TIMEOUT);

        StepVerifier.create(fixture.gateway.find(request.withReference(submitted.reference())))
                .assertNext(found -> {
                    assertThat(found.reference()).isEqualTo(submitted.reference());
                    assertThat(found.status()).isEqualTo(GatewayStatus.SUCCEEDED);
                    assertThat(found.attempt()).isEqualTo(1);
                })
                .verifyComplete();
        assertThat(stripe.searches()).isZero();
        assertThat(stripe.retrieves()).isEqualTo(1);
    }

    @Test
    void aRecordedPaymentIntentOfAnotherAttemptIsNoEvidence() {
        String paymentId = unique("pay");
        GatewayOutcome first = fixture.gateway.submit(charge(paymentId, 1, 12000, "JPY", "pm_card_visa_other"))
                .block(TIMEOUT);

        StepVerifier.create(fixture.gateway.find(charge(paymentId, 2, 12000, "JPY", "pm_card_visa_other")
                        .withReference(first.reference())))
                .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(GatewayException.class)
                        .hasMessageContaining("attempt 2"))
                .verify(TIMEOUT);
    }

    @Test
    void anEmptySearchIsNoEvidenceWithinTheSearchDelayAndEvidenceAfterIt() {
        String method = "pm_card_visa_" + unique("delay");
        ChargeRequest request = charge(unique("pay"), 1, 12000, "JPY", method);
        stripe.failNext(method, FakeStripe.Failure.ERROR_500_BEFORE_CHARGE);
        StepVerifier.create(fixture.gateway.submit(request)).expectError(GatewayException.class).verify(TIMEOUT);

        StepVerifier.create(fixture.gateway.find(request))
                .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(GatewayException.class)
                        .hasMessageContaining("not yet trustworthy"))
                .verify(TIMEOUT);

        fixture.clock.advance(fixture.settings.getSearchDelay().plusSeconds(1));
        StepVerifier.create(fixture.gateway.find(request)).verifyComplete();
        assertThat(stripe.intentsFor(request.paymentId())).isZero();
    }

    @Test
    void aChargeStripeHasNotIndexedYetIsNeverReportedAsNoCharge() {
        stripe.searchIndexDelay(Duration.ofSeconds(50));
        ChargeRequest request = charge(unique("pay"), 1, 12000, "JPY", "pm_card_visa_unindexed");
        fixture.gateway.submit(request).block(TIMEOUT);

        StepVerifier.create(fixture.gateway.find(request))
                .expectError(GatewayException.class)
                .verify(TIMEOUT);

        stripe.advanceClock(Duration.ofSeconds(51));
        StepVerifier.create(fixture.gateway.find(request))
                .assertNext(found -> assertThat(found.status()).isEqualTo(GatewayStatus.SUCCEEDED))
                .verifyComplete();
        assertThat(stripe.searches()).isEqualTo(2);
    }

    @Test
    void aFailedSearchIsNoEvidenceEvenLongAfterTheAttempt() {
        ChargeRequest request = charge(unique("pay"), 1, 12000, "JPY", "pm_card_visa_fails");
        fixture.clock.advance(Duration.ofHours(2));
        stripe.failSearches(true);

        StepVerifier.create(fixture.gateway.find(request))
                .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(GatewayException.class))
                .verify(TIMEOUT);
        assertThat(stripe.searches()).isEqualTo(1);
    }

    @Test
    void aLookUpThatCannotReachStripeIsNoEvidenceNotADefiniteAnswer() {
        ChargeRequest request = charge(unique("pay"), 1, 12000, "JPY", "pm_card_visa_down");
        fixture.clock.advance(Duration.ofHours(2));
        stripe.close();

        StepVerifier.create(fixture.gateway.find(request))
                .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(GatewayException.class)
                        .hasMessageContaining("no evidence"))
                .verify(TIMEOUT);
        StepVerifier.create(fixture.gateway.find(request.withReference("pi_recorded")))
                .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(GatewayException.class))
                .verify(TIMEOUT);
    }

    /** The danger the service's key lifetime avoids: past it, Stripe takes the same key for a new request. */
    @Test
    void theFakeForgetsAKeyAfterItsLifetimeAndTheSameKeyThenMakesASecondPaymentIntent() {
        stripe.forgetKeysAfter(Duration.ofHours(24));
        ChargeRequest request = charge(unique("pay"), 1, 12000, "JPY", "pm_card_visa_expiry");
        GatewayOutcome first = fixture.gateway.submit(request).block(TIMEOUT);

        stripe.advanceClock(Duration.ofHours(23));
        GatewayOutcome replayed = fixture.gateway.submit(request).block(TIMEOUT);
        assertThat(replayed.reference()).isEqualTo(first.reference());
        assertThat(stripe.intentsFor(request.paymentId())).isEqualTo(1);

        stripe.advanceClock(Duration.ofHours(1));
        GatewayOutcome second = fixture.gateway.submit(request).block(TIMEOUT);
        assertThat(second.reference()).isNotEqualTo(first.reference());
        assertThat(stripe.intentsFor(request.paymentId())).isEqualTo(2);
        assertThat(stripe.chargesFor(request.paymentId())).isEqualTo(2);
    }

    @Test
    void theKeyLifetimeIsStripesSettingAndStaysBelowStripes24Hours() {
        assertThat(fixture.connector.idempotencyKeyLifetime()).contains(Duration.ofHours(23));
        fixture.settings.setIdempotencyKeyLifetime(Duration.ofHours(12));
        assertThat(fixture.connector.idempotencyKeyLifetime()).contains(Duration.ofHours(12));
    }
}
