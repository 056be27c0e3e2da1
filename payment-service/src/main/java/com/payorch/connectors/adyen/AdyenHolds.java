package com.payorch.connectors.adyen;

import com.adyen.model.RequestOptions;
import com.adyen.model.checkout.PaymentCancelRequest;
import com.adyen.model.checkout.PaymentCancelResponse;
import com.adyen.model.checkout.PaymentCaptureRequest;
import com.adyen.model.checkout.PaymentCaptureResponse;
import com.adyen.service.exception.ApiException;
import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import java.io.IOException;
import reactor.core.publisher.Mono;

/**
 * The capture and the release of a hold at Adyen (contract v3): by the payment's pspReference through the SDK's
 * `ModificationsApi`, each with its own Idempotency-Key; Adyen only acknowledges them (`received`), so both answer
 * PROCESSING and {@link AdyenWebhooks} reports their outcome (`CAPTURE`, `CAPTURE_FAILED`, `CANCELLATION`,
 * `TECHNICAL_CANCEL`).
 */
final class AdyenHolds {

    private final AdyenGateway gateway;

    AdyenHolds(AdyenGateway gateway) {
        this.gateway = gateway;
    }

    /**
     * `POST /payments/{pspReference}/captures` (CheckoutService-v71.json, PaymentCaptureRequest): `amount` in Adyen's
     * units (less than authorised is a partial capture; Adyen cancels the uncaptured rest unless the account has
     * multiple partial captures enabled), `merchantAccount`, `reference` and `Idempotency-Key` the capture's own key
     * ({@link CaptureRequest#idempotencyKey()}). Adyen only acknowledges (`received`): PROCESSING, settled by the
     * `CAPTURE` (or `CAPTURE_FAILED`) notification. Adyen captures by pspReference only: without one recorded the
     * capture cannot be sent, and whether it could be later is unknown, so a {@link GatewayException}.
     */
    Mono<GatewayOutcome> capture(CaptureRequest request) {
        ChargeRequest charge = request.charge();
        String psp = request.reference();
        if (psp == null || psp.isBlank()) {
            return Mono.error(new GatewayException("Adyen capture " + request.number() + " of payment "
                    + charge.paymentId() + " attempt " + charge.attempt() + ": no pspReference recorded, and Adyen"
                    + " cannot capture by reference"));
        }
        return Mono.fromCallable(() -> {
            AdyenAccounts.Account account = gateway.account(charge);
            PaymentCaptureRequest capture = new PaymentCaptureRequest()
                    .amount(AdyenGateway.adyenAmount(request.amount(), charge.currency(), "capture of payment "
                            + charge.paymentId()))
                    .merchantAccount(account.getMerchantAccount())
                    .reference(request.idempotencyKey());
            RequestOptions options = new RequestOptions().idempotencyKey(request.idempotencyKey());
            try {
                PaymentCaptureResponse response = gateway.modifications(charge.merchantId(), account)
                        .captureAuthorisedPayment(psp, capture, options);
                if (response.getStatus() != PaymentCaptureResponse.StatusEnum.RECEIVED) {
                    throw new GatewayException("Adyen capture of payment " + charge.paymentId() + ": status "
                            + response.getStatus() + ", not received");
                }
                return new GatewayOutcome(charge.paymentId(), charge.attempt(), AdyenGateway.NAME, psp,
                        GatewayStatus.PROCESSING, null);
            } catch (ApiException | IOException | RuntimeException e) {
                throw AdyenGateway.translate("Adyen capture " + request.number() + " of payment "
                        + charge.paymentId() + " attempt " + charge.attempt(), e);
            }
        }).subscribeOn(gateway.scheduler());
    }

    /**
     * Releases the hold: `POST /payments/{pspReference}/cancels` (PaymentCancelRequest: `merchantAccount`,
     * `reference`) with the cancel's own key ({@link CancelRequest#idempotencyKey()}), confirmed by `CANCELLATION`;
     * without a recorded pspReference, {@link AdyenGateway#cancelByReference} (`POST /cancels`, same key), confirmed by
     * `TECHNICAL_CANCEL`. Adyen only acknowledges: PROCESSING. Its reference is the payment's pspReference, or for a
     * cancel by reference the cancel's own pspReference, which is also the reference of the `TECHNICAL_CANCEL` Adyen
     * sends when it held nothing for the payment (recorded on the attempt, it binds that confirmation).
     */
    Mono<GatewayOutcome> cancel(CancelRequest request) {
        ChargeRequest charge = request.charge();
        String psp = request.reference();
        if (psp == null || psp.isBlank()) {
            return gateway.standaloneCancel(charge).map(cancelPsp -> new GatewayOutcome(charge.paymentId(),
                    charge.attempt(), AdyenGateway.NAME, cancelPsp, GatewayStatus.PROCESSING, null));
        }
        return Mono.fromCallable(() -> {
            AdyenAccounts.Account account = gateway.account(charge);
            PaymentCancelRequest cancel = new PaymentCancelRequest()
                    .merchantAccount(account.getMerchantAccount())
                    .reference(request.idempotencyKey());
            RequestOptions options = new RequestOptions().idempotencyKey(request.idempotencyKey());
            try {
                PaymentCancelResponse response = gateway.modifications(charge.merchantId(), account)
                        .cancelAuthorisedPaymentByPspReference(psp, cancel, options);
                if (response.getStatus() != PaymentCancelResponse.StatusEnum.RECEIVED) {
                    throw new GatewayException("Adyen cancel of payment " + charge.paymentId() + ": status "
                            + response.getStatus() + ", not received");
                }
                return new GatewayOutcome(charge.paymentId(), charge.attempt(), AdyenGateway.NAME, psp,
                        GatewayStatus.PROCESSING, null);
            } catch (ApiException | IOException | RuntimeException e) {
                throw AdyenGateway.translate("Adyen cancel of payment " + charge.paymentId() + " attempt "
                        + charge.attempt(), e);
            }
        }).subscribeOn(gateway.scheduler());
    }
}
