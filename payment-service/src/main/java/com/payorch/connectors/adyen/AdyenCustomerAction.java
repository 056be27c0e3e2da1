package com.payorch.connectors.adyen;

import com.adyen.model.RequestOptions;
import com.adyen.model.checkout.CheckoutRedirectAction;
import com.adyen.model.checkout.PaymentCompletionDetails;
import com.adyen.model.checkout.PaymentDetailsRequest;
import com.adyen.model.checkout.PaymentDetailsResponse;
import com.adyen.model.checkout.PaymentResponseAction;
import com.adyen.service.exception.ApiException;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.CompleteRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.MappedStatus;
import java.io.IOException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Adyen's redirect flow (3-D Secure through a redirect, redirect payment methods): `/payments` with `returnUrl` may
 * answer `RedirectShopper` with an `action` of type `redirect`; the customer follows its `url` (GET) and comes back
 * to the `returnUrl` with a `redirectResult` in the query, which the merchant forwards to us, and which
 * {@link #complete} sends to `POST /payments/details` (CheckoutService-v71.json: PaymentDetailsRequest
 * `details.redirectResult`) under the completion's own Idempotency-Key. Its `resultCode` is mapped as the one of
 * `/payments` ({@link AdyenStatuses}). A redirect by POST (`method` POST with `data`) needs a form in the merchant's
 * page: not followed, FAILED `authentication_required` like the actions that need Adyen's JavaScript components.
 */
final class AdyenCustomerAction {

    private final AdyenGateway gateway;

    AdyenCustomerAction(AdyenGateway gateway) {
        this.gateway = gateway;
    }

    /** The page the customer is sent to: a GET `redirect` action, only when the merchant gave a `returnUrl`. */
    static @Nullable String redirectUrl(ChargeRequest request, @Nullable PaymentResponseAction action) {
        if (!request.customerCanAct() || action == null
                || !(action.getActualInstance() instanceof CheckoutRedirectAction redirect)) {
            return null;
        }
        boolean get = redirect.getMethod() == null || "GET".equals(redirect.getMethod().toUpperCase(Locale.ROOT));
        return get && redirect.getUrl() != null && !redirect.getUrl().isBlank() ? redirect.getUrl() : null;
    }

    /**
     * `POST /payments/details` with the customer's `redirectResult`. Without one there is nothing to send: refused
     * (the payment keeps waiting for its customer, its notification or its expiry). An answer about another payment
     * (a `redirectResult` of another payment forwarded here) is refused, never applied to this one.
     */
    Mono<GatewayOutcome> complete(CompleteRequest request) {
        ChargeRequest charge = request.charge();
        String about = "Adyen completion of payment " + charge.paymentId() + " attempt " + charge.attempt();
        String redirectResult = request.redirectResult();
        if (redirectResult == null || redirectResult.isBlank()) {
            return Mono.error(new ConnectorRefusedException(about + ": no redirectResult, nothing to send to"
                    + " /payments/details"));
        }
        return Mono.fromCallable(() -> {
            AdyenAccounts.Account account = gateway.account(charge);
            PaymentDetailsRequest details = new PaymentDetailsRequest()
                    .details(new PaymentCompletionDetails().redirectResult(redirectResult));
            RequestOptions options = new RequestOptions().idempotencyKey(request.idempotencyKey());
            try {
                return outcome(charge, about, gateway.api(charge.merchantId(), account).paymentsDetails(details,
                        options));
            } catch (ApiException | IOException | RuntimeException e) {
                throw AdyenGateway.translate(about, e);
            }
        }).subscribeOn(gateway.scheduler());
    }

    static GatewayOutcome outcome(ChargeRequest charge, String about, PaymentDetailsResponse response) {
        PaymentDetailsResponse.ResultCodeEnum code = response.getResultCode();
        String reference = response.getPspReference() != null ? response.getPspReference() : charge.reference();
        if (code == null || code == PaymentDetailsResponse.ResultCodeEnum.ERROR || reference == null) {
            throw new GatewayException(about + ": resultCode " + code + ", outcome unknown");
        }
        if (response.getMerchantReference() != null && !charge.paymentId().equals(response.getMerchantReference())
                || charge.reference() != null && !charge.reference().equals(reference)) {
            throw new ConnectorRefusedException(about + ": Adyen answered about payment "
                    + response.getMerchantReference() + " (pspReference " + reference + "), not this one");
        }
        // /payments/details can only ask for a threeDS2 action, never a redirect the customer could follow.
        MappedStatus mapped = AdyenStatuses.charge(code.getValue(), response.getRefusalReason(),
                charge.captureMethod(), false);
        return new GatewayOutcome(charge.paymentId(), charge.attempt(), AdyenGateway.NAME, reference,
                mapped.status(), mapped.failureReason());
    }
}
