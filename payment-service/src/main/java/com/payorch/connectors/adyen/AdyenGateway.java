package com.payorch.connectors.adyen;

import com.adyen.Client;
import com.adyen.Config;
import com.adyen.enums.Environment;
import com.adyen.model.RequestOptions;
import com.adyen.model.checkout.Amount;
import com.adyen.model.checkout.CardDetails;
import com.adyen.model.checkout.CheckoutPaymentMethod;
import com.adyen.model.checkout.PaymentRefundRequest;
import com.adyen.model.checkout.PaymentRequest;
import com.adyen.model.checkout.PaymentResponse;
import com.adyen.model.checkout.PaymentReversalRequest;
import com.adyen.model.checkout.StandalonePaymentCancelRequest;
import com.adyen.model.checkout.StandalonePaymentCancelResponse;
import com.adyen.service.checkout.ModificationsApi;
import com.adyen.service.checkout.PaymentsApi;
import com.adyen.service.exception.ApiException;
import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.CompleteRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.FailureKinds;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Adyen through the official `adyen-java-api-library`: one attempt is one Checkout `POST …/payments` with
 * `amount.value` in Adyen's units ({@link AdyenCurrencies}), `amount.currency`, `reference` = the payment id,
 * `merchantAccount`, the payment method, `metadata.paymentId`/`metadata.attempt` (returned in notifications as
 * `additionalData.metadata.*`: the exact attempt), and the attempt's idempotency key as `Idempotency-Key` (Adyen
 * keeps keys for at least 31 days; the service resends only within
 * `payments.connectors.adyen.idempotency-key-lifetime`).
 * <ul>
 *   <li>`resultCode` as {@link AdyenStatuses} says; `Error` → ambiguous. With the payment's `returnUrl` (sent as
 *       `returnUrl`), `RedirectShopper` with a GET `redirect` action waits for the customer at its `url`
 *       (REQUIRES_ACTION); {@link #complete} sends what the customer brought back ({@link AdyenCustomerAction}).</li>
 *   <li>connection refused, unknown host → {@link GatewayUnavailableException}; HTTP 401, 403, 400, 422
 *       (validation) → {@link ConnectorRefusedException}; 422 `704` (a request with the same key in progress),
 *       time-out, 5xx, anything else → ambiguous. An amount Adyen cannot express exactly (CVE 12345) is refused
 *       before anything is sent.</li>
 *   <li>{@link #find}: Checkout has no look-up of a payment by our reference, so it is no evidence: a
 *       {@link GatewayException}. What became of an attempt is learnt from its notification, from resubmitting with
 *       the same key within its lifetime, or from {@link #cancelByReference} confirmed by `TECHNICAL_CANCEL`.</li>
 * </ul>
 * Holds (manual capture: `additionalData.manualCapture=true`, `Authorised` → AUTHORIZED) are captured and released by
 * {@link AdyenHolds}. The SDK runs on {@link AdyenHttpTransport}, which never re-sends a POST by itself. The payment
 * method token is sent as a stored payment method id (`paymentMethod.storedPaymentMethodId`, type `scheme`).
 */
public final class AdyenGateway implements PaymentGateway {

    public static final String NAME = "adyen";

    /** The `/payments` metadata keys; Adyen returns them as `additionalData.metadata.<key>` in notifications. */
    static final String METADATA_PAYMENT_ID = "paymentId";
    static final String METADATA_ATTEMPT = "attempt";
    /**
     * Sent only on a manual-capture submit (value `manual`): an AUTHORISATION notification does not say whether the
     * payment waits for a capture, so {@link AdyenWebhooks} reads it back to tell a hold from a charge.
     */
    static final String METADATA_CAPTURE_METHOD = "captureMethod";

    private final AdyenSettings settings;
    private final AdyenAccounts accounts;
    private final Scheduler scheduler;
    private final Map<String, PaymentsApi> apis = new ConcurrentHashMap<>();
    private final Map<String, ModificationsApi> modificationApis = new ConcurrentHashMap<>();
    private final AdyenHolds holds = new AdyenHolds(this);
    private final AdyenCustomerAction customerAction = new AdyenCustomerAction(this);

    public AdyenGateway(AdyenSettings settings, AdyenAccounts accounts, Scheduler scheduler) {
        this.settings = settings;
        this.accounts = accounts;
        this.scheduler = scheduler;
    }

    Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Mono<GatewayOutcome> submit(ChargeRequest request) {
        return Mono.fromCallable(() -> {
            AdyenAccounts.Account account = account(request);
            Map<String, String> metadata = new HashMap<>(Map.of(METADATA_PAYMENT_ID, request.paymentId(),
                    METADATA_ATTEMPT, Integer.toString(request.attempt())));
            PaymentRequest payment = new PaymentRequest()
                    .amount(adyenAmount(request.amount(), request.currency(), "payment " + request.paymentId()))
                    .reference(request.paymentId())
                    .merchantAccount(account.getMerchantAccount())
                    .paymentMethod(new CheckoutPaymentMethod(method(request.paymentMethod())));
            if (request.manualCapture()) {
                // Adyen's per-request manual capture: the payment is only authorised until captured or cancelled.
                payment.additionalData(Map.of("manualCapture", "true"));
                metadata.put(METADATA_CAPTURE_METHOD, CaptureMethod.MANUAL.value());
            }
            payment.metadata(metadata);
            if (request.returnUrl() != null) {
                // Required by Adyen for redirect methods and 3-D Secure redirects: where the customer comes back to.
                payment.returnUrl(request.returnUrl());
            }
            RequestOptions options = new RequestOptions().idempotencyKey(request.idempotencyKey());
            try {
                return outcome(request, api(request.merchantId(), account).payments(payment, options));
            } catch (ApiException | IOException | RuntimeException e) {
                throw translate(request, e);
            }
        }).subscribeOn(scheduler);
    }

    /** Checkout cannot be asked about a payment by our reference: no answer here is evidence of "no charge". */
    @Override
    public Mono<GatewayOutcome> find(ChargeRequest request) {
        return Mono.error(new GatewayException("Adyen has no look-up by reference: payment " + request.paymentId()
                + " attempt " + request.attempt() + " cannot be confirmed uncharged by asking"));
    }

    /**
     * `POST /cancels` (CheckoutService-v71.json, StandalonePaymentCancelRequest) with `paymentReference` = the payment
     * id (the `reference` every attempt's `/payments` carried), the merchant account, and a key of its own
     * ({@link #cancelKey}). Completes when Adyen answers `received`; Adyen confirms later with `TECHNICAL_CANCEL`
     * (success=true: nothing is held for that reference any more), which {@link AdyenWebhooks} reports as the
     * attempt FAILED `gateway_unreachable`.
     */
    @Override
    public Mono<Void> cancelByReference(ChargeRequest request) {
        return standaloneCancel(request).then();
    }

    /** `POST /cancels` by our reference, with {@link #cancelKey}: the cancel's pspReference once Adyen received it. */
    Mono<String> standaloneCancel(ChargeRequest request) {
        return Mono.fromCallable(() -> {
            AdyenAccounts.Account account = account(request);
            StandalonePaymentCancelRequest cancel = new StandalonePaymentCancelRequest()
                    .merchantAccount(account.getMerchantAccount())
                    .paymentReference(request.paymentId())
                    .reference(cancelKey(request));
            RequestOptions options = new RequestOptions().idempotencyKey(cancelKey(request));
            try {
                StandalonePaymentCancelResponse response = modifications(request.merchantId(), account)
                        .cancelAuthorisedPayment(cancel, options);
                if (response.getStatus() != StandalonePaymentCancelResponse.StatusEnum.RECEIVED
                        || response.getPspReference() == null) {
                    throw new GatewayException("Adyen cancel of payment " + request.paymentId() + " attempt "
                            + request.attempt() + ": status " + response.getStatus() + ", not received");
                }
                return response.getPspReference();
            } catch (ApiException | IOException | RuntimeException e) {
                throw translate(request, e);
            }
        }).subscribeOn(scheduler);
    }

    /** The cancel's own Idempotency-Key and reference: the attempt's key, marked as its cancel. */
    static String cancelKey(ChargeRequest request) {
        return request.idempotencyKey() + "-cancel";
    }

    /** {@link AdyenCustomerAction#complete}: `POST /payments/details` with the customer's `redirectResult`. */
    @Override
    public Mono<GatewayOutcome> complete(CompleteRequest request) {
        return customerAction.complete(request);
    }

    /** {@link AdyenHolds#capture}. */
    @Override
    public Mono<GatewayOutcome> capture(CaptureRequest request) {
        return holds.capture(request);
    }

    /** {@link AdyenHolds#cancel}. */
    @Override
    public Mono<GatewayOutcome> cancel(CancelRequest request) {
        return holds.cancel(request);
    }

    /**
     * `POST /payments/{pspReference}/refunds` for the charged attempt's pspReference, with the refund id as the
     * `Idempotency-Key` and as `reference` (Adyen's `merchantReference` in the REFUND notification). Adyen only
     * acknowledges (`received`): the refund stays PENDING until its REFUND notification.
     */
    @Override
    public Mono<RefundOutcome> refund(RefundRequest request) {
        ChargeRequest about = new ChargeRequest(request.paymentId(), request.attempt(), request.amount(),
                request.currency(), "", request.merchantId(), NAME);
        if (request.chargeReference() == null) {
            return Mono.error(new ConnectorRefusedException("Adyen refund " + request.refundId()
                    + ": the charged attempt has no pspReference"));
        }
        if (request.orphanedCharge()) {
            return reverse(request, about);
        }
        return modification(request, about, "refund", (account, options) -> {
            PaymentRefundRequest refund = new PaymentRefundRequest()
                    .amount(adyenAmount(request.amount(), request.currency(), "refund " + request.refundId()))
                    .merchantAccount(account.getMerchantAccount())
                    .reference(request.refundId());
            return modifications(request.merchantId(), account)
                    .refundCapturedPayment(request.chargeReference(), refund, options).getPspReference();
        });
    }

    /**
     * An orphaned charge given back whole: `POST /payments/{pspReference}/reversals` (CheckoutService-v71.json,
     * PaymentReversalRequest: no amount, the whole payment), which cancels an uncaptured authorisation and refunds a
     * captured one, where `/refunds` fails on an uncaptured authorisation. The refund id is the `reference`
     * (merchantReference of the `CANCEL_OR_REFUND` notification) and the `Idempotency-Key`.
     */
    private Mono<RefundOutcome> reverse(RefundRequest request, ChargeRequest about) {
        return modification(request, about, "reversal", (account, options) -> {
            PaymentReversalRequest reversal = new PaymentReversalRequest()
                    .merchantAccount(account.getMerchantAccount())
                    .reference(request.refundId());
            return modifications(request.merchantId(), account)
                    .refundOrCancelPayment(request.chargeReference(), reversal, options).getPspReference();
        });
    }

    /** One call of Adyen's modifications API that gives money back: the pspReference it answers. */
    @FunctionalInterface
    private interface GiveBack {
        String send(AdyenAccounts.Account account, RequestOptions options) throws ApiException, IOException;
    }

    /**
     * Sends a refund or a reversal with the refund id as its key: PROCESSING with Adyen's pspReference (the outcome
     * comes by notification); no pspReference is an unknown outcome.
     */
    private Mono<RefundOutcome> modification(RefundRequest request, ChargeRequest about, String what,
                                             GiveBack giveBack) {
        return Mono.fromCallable(() -> {
            AdyenAccounts.Account account = account(about);
            RequestOptions options = new RequestOptions().idempotencyKey(request.idempotencyKey());
            try {
                String pspReference = giveBack.send(account, options);
                if (pspReference == null) {
                    throw new GatewayException("Adyen " + what + " " + request.refundId() + ": no pspReference,"
                            + " outcome unknown");
                }
                return new RefundOutcome(request.refundId(), NAME, pspReference, GatewayStatus.PROCESSING, null);
            } catch (ApiException | IOException | RuntimeException e) {
                throw translate(about, e);
            }
        }).subscribeOn(scheduler);
    }

    /** The amount in Adyen's units; one Adyen cannot express exactly is refused before anything is sent. */
    static Amount adyenAmount(long isoAmount, String currency, String about) {
        String code = currency.toUpperCase(Locale.ROOT);
        OptionalLong value = AdyenCurrencies.UNITS.toConnector(isoAmount, code);
        if (value.isEmpty()) {
            throw new ConnectorRefusedException("Adyen cannot express " + code + " " + isoAmount + " (ISO minor units)"
                    + " of " + about + " exactly: Adyen writes " + code + " with "
                    + AdyenCurrencies.UNITS.exponent(code) + " decimals (" + AdyenCurrencies.SOURCE + ")");
        }
        return new Amount().value(value.getAsLong()).currency(code);
    }

    static CardDetails method(String token) {
        return new CardDetails().type(CardDetails.TypeEnum.SCHEME).storedPaymentMethodId(token);
    }

    public static GatewayOutcome outcome(ChargeRequest request, PaymentResponse response) {
        String reference = response.getPspReference();
        PaymentResponse.ResultCodeEnum code = response.getResultCode();
        if (code == null || code == PaymentResponse.ResultCodeEnum.ERROR || reference == null) {
            throw new GatewayException("Adyen submit of payment " + request.paymentId() + " attempt "
                    + request.attempt() + ": resultCode " + code + ", outcome unknown");
        }
        String redirect = AdyenCustomerAction.redirectUrl(request, response.getAction());
        MappedStatus mapped = AdyenStatuses.charge(code.getValue(), response.getRefusalReason(),
                request.captureMethod(), redirect != null);
        if (mapped.status() == GatewayStatus.REQUIRES_ACTION && redirect != null) {
            return GatewayOutcome.requiresAction(request.paymentId(), request.attempt(), NAME, reference, redirect);
        }
        return new GatewayOutcome(request.paymentId(), request.attempt(), NAME, reference, mapped.status(),
                mapped.failureReason());
    }

    AdyenAccounts.Account account(ChargeRequest request) {
        String merchantId = request.merchantId();
        AdyenAccounts.Account account = accounts.account(merchantId);
        if (account == null || blank(account.getApiKey()) || blank(account.getMerchantAccount())) {
            throw new ConnectorRefusedException("merchant " + merchantId + " has no Adyen API key or merchant account"
                    + " configured");
        }
        return account;
    }

    private static boolean blank(@Nullable String value) {
        return value == null || value.isBlank();
    }

    ModificationsApi modifications(String merchantId, AdyenAccounts.Account account) {
        return modificationApis.computeIfAbsent(merchantId, id -> new ModificationsApi(client(account), base()));
    }

    PaymentsApi api(String merchantId, AdyenAccounts.Account account) {
        return apis.computeIfAbsent(merchantId, id -> new PaymentsApi(client(account), base()));
    }

    private String base() {
        String base = settings.getCheckoutUrl().toString();
        return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    private Client client(AdyenAccounts.Account account) {
        Config config = new Config();
        config.setApiKey(account.getApiKey());
        config.setEnvironment(Environment.TEST);
        config.setConnectionTimeoutMillis((int) settings.getConnectTimeout().toMillis());
        config.setReadTimeoutMillis((int) settings.getReadTimeout().toMillis());
        Client client = new Client(config);
        client.setHttpClient(new AdyenHttpTransport(settings.getConnectTimeout(), settings.getReadTimeout()));
        return client;
    }

    /**
     * Adyen's error code for "request already processed or in progress": a 422 that is not a validation refusal but
     * a concurrent request with the same Idempotency-Key, so nothing definite.
     */
    static final String REQUEST_IN_PROGRESS = "704";

    private static @Nullable String errorCode(ApiException api) {
        if (api.getError() != null && api.getError().getErrorCode() != null) {
            return api.getError().getErrorCode();
        }
        String body = api.getResponseBody();
        return body != null && body.replace(" ", "").contains("\"errorCode\":\"" + REQUEST_IN_PROGRESS + "\"")
                ? REQUEST_IN_PROGRESS : null;
    }

    /** Adyen's failure in the port's words ({@link FailureKinds}); the message names the payment and the HTTP status. */
    public static GatewayException translate(ChargeRequest request, Exception e) {
        return translate("Adyen submit of payment " + request.paymentId() + " attempt " + request.attempt(), e);
    }

    /** As {@link #translate(ChargeRequest, Exception)}, for the request {@code about} names (a capture, a cancel). */
    static GatewayException translate(String about, Exception e) {
        if (e instanceof GatewayException gateway) {
            return gateway;
        }
        if (e instanceof ApiException api) {
            int status = api.getStatusCode();
            if (status == 422 && REQUEST_IN_PROGRESS.equals(errorCode(api))) {
                // Another request with this Idempotency-Key is still being processed: it may yet charge.
                return FailureKinds.ambiguous(about, "HTTP 422 " + REQUEST_IN_PROGRESS
                        + " (a request with this key is in progress)");
            }
            if (status == 400 || status == 401 || status == 403 || status == 422) {
                return FailureKinds.refused(about, "HTTP " + status);
            }
            Throwable notSent = FailureKinds.notSentCause(e);
            if (status <= 0 && notSent != null) {
                return FailureKinds.notSent(about, notSent);
            }
            return FailureKinds.ambiguous(about, "HTTP " + status);
        }
        return FailureKinds.transportFailure(about, e);
    }
}
