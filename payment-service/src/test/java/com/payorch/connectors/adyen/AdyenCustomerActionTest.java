package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.adyen.model.checkout.CheckoutRedirectAction;
import com.adyen.model.checkout.CheckoutThreeDS2Action;
import com.adyen.model.checkout.PaymentDetailsResponse;
import com.adyen.model.checkout.PaymentResponse;
import com.adyen.model.checkout.PaymentResponseAction;
import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.CompleteRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import reactor.core.scheduler.Schedulers;

/** Which Adyen answers wait for the customer, and what a completion sends and accepts. */
class AdyenCustomerActionTest {

    private static final String PAGE = "https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect?MD=M2";
    private static final ChargeRequest CHARGE = new ChargeRequest("pay_1", 1, 1000, "EUR", "pm_card_3ds", "m", "adyen",
            null, CaptureMethod.AUTOMATIC, "https://shop.example/back?payment_id=pay_1");

    private static PaymentResponse redirectShopper(PaymentResponseAction action) {
        return new PaymentResponse().resultCode(PaymentResponse.ResultCodeEnum.REDIRECTSHOPPER)
                .pspReference("8815").action(action);
    }

    private static PaymentResponseAction redirect(String method) {
        return new PaymentResponseAction(new CheckoutRedirectAction().type(CheckoutRedirectAction.TypeEnum.REDIRECT)
                .method(method).url(PAGE).paymentMethodType("scheme"));
    }

    @Test
    void aGetRedirectWithAReturnUrlWaitsForTheCustomerAtAdyensPage() {
        GatewayOutcome outcome = AdyenGateway.outcome(CHARGE, redirectShopper(redirect("GET")));

        assertThat(outcome.status()).isEqualTo(GatewayStatus.REQUIRES_ACTION);
        assertThat(outcome.nextActionUrl()).isEqualTo(PAGE);
        assertThat(outcome.reference()).isEqualTo("8815");
    }

    @Test
    void aRedirectWithoutAReturnUrlByPostOrANativeChallengeFailsAuthenticationRequired() {
        GatewayOutcome noReturnUrl = AdyenGateway.outcome(CHARGE.returningTo(null), redirectShopper(redirect("GET")));
        GatewayOutcome byPost = AdyenGateway.outcome(CHARGE, redirectShopper(redirect("POST")));
        GatewayOutcome nativeChallenge = AdyenGateway.outcome(CHARGE, new PaymentResponse()
                .resultCode(PaymentResponse.ResultCodeEnum.IDENTIFYSHOPPER).pspReference("8816")
                .action(new PaymentResponseAction(new CheckoutThreeDS2Action()
                        .type(CheckoutThreeDS2Action.TypeEnum.THREEDS2).token("eyJ0"))));

        for (GatewayOutcome outcome : new GatewayOutcome[] {noReturnUrl, byPost, nativeChallenge}) {
            assertThat(outcome.status()).isEqualTo(GatewayStatus.FAILED);
            assertThat(outcome.failureReason()).isEqualTo("authentication_required");
            assertThat(outcome.nextActionUrl()).isNull();
        }
        assertThat(AdyenStatuses.charge("ChallengeShopper", null, CaptureMethod.AUTOMATIC, true))
                .isEqualTo(new MappedStatus(GatewayStatus.FAILED, "authentication_required"));
        assertThat(AdyenStatuses.charge("RedirectShopper", null, CaptureMethod.AUTOMATIC, true))
                .isEqualTo(new MappedStatus(GatewayStatus.REQUIRES_ACTION, null));
    }

    @Test
    void theDetailsAnswerIsMappedAsThePaymentsAnswer() {
        ChargeRequest held = CHARGE.withReference("8815").capturing(CaptureMethod.MANUAL);
        PaymentDetailsResponse authorised = new PaymentDetailsResponse()
                .resultCode(PaymentDetailsResponse.ResultCodeEnum.AUTHORISED).merchantReference("pay_1");

        assertThat(AdyenCustomerAction.outcome(held, "completion", authorised))
                .isEqualTo(new GatewayOutcome("pay_1", 1, "adyen", "8815", GatewayStatus.AUTHORIZED, null));
        assertThat(AdyenCustomerAction.outcome(CHARGE, "completion", new PaymentDetailsResponse()
                .resultCode(PaymentDetailsResponse.ResultCodeEnum.REFUSED).refusalReason("3D Not Authenticated")
                .pspReference("8815")).failureReason()).isEqualTo("3D Not Authenticated");
        assertThatThrownBy(() -> AdyenCustomerAction.outcome(held, "completion", new PaymentDetailsResponse()
                .resultCode(PaymentDetailsResponse.ResultCodeEnum.ERROR).pspReference("8815")))
                .isExactlyInstanceOf(GatewayException.class);
    }

    @Test
    void anAnswerAboutAnotherPaymentIsRefusedNotApplied() {
        assertThatThrownBy(() -> AdyenCustomerAction.outcome(CHARGE.withReference("8815"), "completion",
                new PaymentDetailsResponse().resultCode(PaymentDetailsResponse.ResultCodeEnum.AUTHORISED)
                        .pspReference("9999")))
                .isInstanceOf(ConnectorRefusedException.class);
        assertThatThrownBy(() -> AdyenCustomerAction.outcome(CHARGE, "completion", new PaymentDetailsResponse()
                .resultCode(PaymentDetailsResponse.ResultCodeEnum.AUTHORISED).pspReference("9999")
                .merchantReference("pay_2")))
                .isInstanceOf(ConnectorRefusedException.class);
    }

    @Test
    void aCompletionWithoutARedirectResultIsRefusedBeforeAnythingIsSent() {
        Binder binder = new Binder(new MapConfigurationPropertySource(Map.of()));
        AdyenGateway gateway = new AdyenGateway(
                binder.bindOrCreate("payments.connectors.adyen", Bindable.of(AdyenSettings.class)),
                binder.bindOrCreate("payments", Bindable.of(AdyenAccounts.class)), Schedulers.immediate());

        assertThatThrownBy(() -> gateway.complete(new CompleteRequest(CHARGE, null)).block())
                .isInstanceOf(ConnectorRefusedException.class).hasMessageContaining("no redirectResult");
        assertThatThrownBy(() -> gateway.complete(new CompleteRequest(CHARGE, " ")).block())
                .isInstanceOf(ConnectorRefusedException.class);
    }
}
