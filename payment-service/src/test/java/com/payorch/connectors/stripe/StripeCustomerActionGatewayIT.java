package com.payorch.connectors.stripe;

import static com.payorch.connectors.stripe.StripeFixture.charge;
import static com.payorch.connectors.stripe.StripeFixture.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeStripe;
import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.CompleteRequest;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 3-D Secure at Stripe through the connector's gateway and webhook adapter, against {@link FakeStripe}: the
 * `return_url` sent on confirm, `requires_action` with a `redirect_to_url` page as REQUIRES_ACTION (and as a failure
 * when the customer cannot be sent there), the look-up of a waiting PaymentIntent, the customer's approval or failure
 * and the events about each, and the cancel of a PaymentIntent whose customer never came back.
 */
class StripeCustomerActionGatewayIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String RETURN = "https://shop.example/back?order=7&payment_id=pay_x";

    private final StripeFixture fixture = new StripeFixture();
    private final FakeStripe stripe = fixture.stripe;

    @AfterEach
    void close() {
        fixture.close();
    }

    private static ChargeRequest threeDs(String method) {
        return charge(unique("pay"), 1, 12000, "JPY", method).returningTo(RETURN);
    }

    private GatewayOutcome waiting(ChargeRequest request) {
        GatewayOutcome outcome = fixture.gateway.submit(request).block(TIMEOUT);
        assertThat(outcome.status()).isEqualTo(GatewayStatus.REQUIRES_ACTION);
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
    void aCardNeedingThreeDsWithAReturnUrlWaitsForTheCustomerOnStripesPageAndIsFoundWaiting() {
        ChargeRequest request = threeDs("pm_card_authenticationRequired_gw1");

        GatewayOutcome outcome = waiting(request);

        assertThat(stripe.createdWith(request.idempotencyKey())).containsEntry("return_url", RETURN)
                .containsEntry("confirm", "true");
        assertThat(outcome.reference()).startsWith("pi_");
        assertThat(outcome.nextActionUrl()).isEqualTo(stripe.baseUrl() + "/3ds/" + outcome.reference());
        assertThat(outcome.failureReason()).isNull();
        ChargeRequest recorded = request.withReference(outcome.reference());
        GatewayOutcome found = fixture.gateway.find(recorded).block(TIMEOUT);
        assertThat(found.status()).isEqualTo(GatewayStatus.REQUIRES_ACTION);
        assertThat(found.nextActionUrl()).isEqualTo(outcome.nextActionUrl());
        GatewayOutcome completed = fixture.gateway.complete(new CompleteRequest(recorded, null)).block(TIMEOUT);
        assertThat(completed.status()).as("the customer has not come back yet").isEqualTo(GatewayStatus.REQUIRES_ACTION);
        assertThat(fixture.gateway.find(request).block(TIMEOUT).status()).as("found by search too")
                .isEqualTo(GatewayStatus.REQUIRES_ACTION);
    }

    @Test
    void withoutAReturnUrlNothingIsSentAndTheSdkActionIsAFailureAuthenticationRequired() {
        ChargeRequest request = charge(unique("pay"), 1, 12000, "JPY", "pm_card_authenticationRequired_gw2");

        GatewayOutcome outcome = fixture.gateway.submit(request).block(TIMEOUT);

        assertThat(stripe.createdWith(request.idempotencyKey())).doesNotContainKey("return_url");
        assertThat(outcome.status()).isEqualTo(GatewayStatus.FAILED);
        assertThat(outcome.failureReason()).isEqualTo("authentication_required");
        assertThat(outcome.nextActionUrl()).isNull();
    }

    @Test
    void aRedirectPageLookedUpForARequestWithoutAReturnUrlIsStillNoPageForTheCustomer() {
        GatewayOutcome outcome = waiting(threeDs("pm_card_authenticationRequired_gw3"));
        ChargeRequest withoutReturn = charge(outcome.paymentId(), 1, 12000, "JPY",
                "pm_card_authenticationRequired_gw3").withReference(outcome.reference());

        GatewayOutcome found = fixture.gateway.find(withoutReturn).block(TIMEOUT);

        assertThat(found.status()).isEqualTo(GatewayStatus.FAILED);
        assertThat(found.failureReason()).isEqualTo("authentication_required");
    }

    @Test
    void theRequiresActionEventIsIgnoredAndAnApprovalIsASuccessByEventAndByLookUp() {
        ChargeRequest request = threeDs("pm_card_authenticationRequired_gw4");
        GatewayOutcome outcome = waiting(request);
        FakeStripe.SentEvent requiresAction = stripe.eventsOf(outcome.reference()).get(0);
        assertThat(requiresAction.type()).isEqualTo("payment_intent.requires_action");
        assertThat(fixture.receive(requiresAction.payload())).as("acknowledged, changes nothing").isEmpty();

        stripe.approve(outcome.reference());

        ConnectorNotification succeeded = lastEvent(outcome.reference(), "payment_intent.succeeded");
        assertThat(succeeded.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(succeeded.paymentId()).isEqualTo(request.paymentId());
        assertThat(succeeded.attempt()).isEqualTo(1);
        assertThat(succeeded.amount()).isEqualTo(12000);
        GatewayOutcome completed = fixture.gateway.complete(
                new CompleteRequest(request.withReference(outcome.reference()), null)).block(TIMEOUT);
        assertThat(completed.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(completed.nextActionUrl()).isNull();
    }

    @Test
    void aManualPaymentApprovedIsAnAuthorisation() {
        ChargeRequest request = threeDs("pm_card_authenticationRequired_gw5").capturing(CaptureMethod.MANUAL);
        GatewayOutcome outcome = waiting(request);

        stripe.approve(outcome.reference());

        assertThat(lastEvent(outcome.reference(), "payment_intent.amount_capturable_updated").status())
                .isEqualTo(GatewayStatus.AUTHORIZED);
        assertThat(fixture.gateway.find(request.withReference(outcome.reference())).block(TIMEOUT).status())
                .isEqualTo(GatewayStatus.AUTHORIZED);
    }

    @Test
    void aFailedAuthenticationIsAFailureWithStripesCodeByEventAndByLookUp() {
        ChargeRequest request = threeDs("pm_card_authenticationRequired_gw6");
        GatewayOutcome outcome = waiting(request);

        stripe.fail(outcome.reference());

        ConnectorNotification failed = lastEvent(outcome.reference(), "payment_intent.payment_failed");
        assertThat(failed.status()).isEqualTo(GatewayStatus.FAILED);
        assertThat(failed.failureReason()).isEqualTo("payment_intent_authentication_failure");
        GatewayOutcome found = fixture.gateway.find(request.withReference(outcome.reference())).block(TIMEOUT);
        assertThat(found.status()).isEqualTo(GatewayStatus.FAILED);
        assertThat(found.failureReason()).isEqualTo("payment_intent_authentication_failure");
    }

    @Test
    void theExpirysCancelOfAWaitingPaymentIntentIsAbandonedAndCancelled() {
        ChargeRequest request = threeDs("pm_card_authenticationRequired_gw7");
        GatewayOutcome outcome = waiting(request);
        CancelRequest cancel = new CancelRequest(request.withReference(outcome.reference()), "authentication_expired");

        GatewayOutcome released = fixture.gateway.cancel(cancel).block(TIMEOUT);

        assertThat(released.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(released.failureReason()).isEqualTo("abandoned");
        assertThat(stripe.canceledWith(cancel.idempotencyKey())).containsEntry("cancellation_reason", "abandoned");
        assertThat(stripe.intent(outcome.reference())).containsEntry("status", "canceled");
        ConnectorNotification canceled = lastEvent(outcome.reference(), "payment_intent.canceled");
        assertThat(canceled.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(canceled.failureReason()).isEqualTo("abandoned");
        GatewayOutcome found = fixture.gateway.find(request.withReference(outcome.reference())).block(TIMEOUT);
        assertThat(found.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(found.failureReason()).isEqualTo("abandoned");
        assertThat(fixture.gateway.cancel(cancel).block(TIMEOUT).status()).as("sent again: the same cancel")
                .isEqualTo(GatewayStatus.CANCELLED);
        assertThat(stripe.cancelsFor(request.paymentId())).isEqualTo(1);
    }

    @Test
    void theCustomersPageSettlesThePaymentIntentOnceAndSendsTheBrowserBackWithItsId() throws Exception {
        GatewayOutcome outcome = waiting(threeDs("pm_card_authenticationRequired_gw8"));
        HttpClient browser = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        URI page = URI.create(outcome.nextActionUrl());

        HttpResponse<String> shown = browser.send(HttpRequest.newBuilder(page).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(shown.statusCode()).isEqualTo(200);
        assertThat(shown.body()).contains("name=\"decision\"").contains("value=\"approve\"").contains("12000 jpy");

        HttpResponse<String> approved = browser.send(post(page, "decision=approve"), HttpResponse.BodyHandlers.ofString());
        assertThat(approved.statusCode()).isEqualTo(303);
        assertThat(approved.headers().firstValue("Location")).hasValueSatisfying(location -> assertThat(location)
                .startsWith(RETURN + "&payment_intent=" + outcome.reference()));
        assertThat(stripe.intent(outcome.reference())).containsEntry("status", "succeeded");

        HttpResponse<String> again = browser.send(post(page, "decision=fail"), HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(stripe.intent(outcome.reference())).containsEntry("status", "succeeded");
        assertThat(stripe.eventsOf(outcome.reference())).extracting(FakeStripe.SentEvent::type)
                .containsExactly("payment_intent.requires_action", "payment_intent.succeeded");
        assertThat(browser.send(HttpRequest.newBuilder(URI.create(stripe.baseUrl() + "/3ds/pi_nosuch")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }

    private static HttpRequest post(URI page, String form) {
        return HttpRequest.newBuilder(page).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
    }
}
