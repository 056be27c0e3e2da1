package com.payorch.connectors;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import com.stripe.StripeClient;
import com.stripe.exception.ApiConnectionException;
import com.stripe.exception.AuthenticationException;
import com.stripe.exception.CardException;
import com.stripe.exception.IdempotencyException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.StripeException;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeError;
import com.stripe.net.RequestOptions;
import com.stripe.param.PaymentIntentCreateParams;
import com.stripe.param.PaymentIntentSearchParams;
import com.stripe.param.RefundCreateParams;
import com.stripe.param.RefundListParams;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Stripe through the official `stripe-java` SDK. One attempt is one PaymentIntent created with `confirm=true`, the
 * attempt's idempotency key as Stripe's `Idempotency-Key`, `metadata[payment_id]` and `metadata[attempt]`.
 * <ul>
 *   <li>One {@link StripeClient} per merchant (its secret key), all pointed at `payments.connectors.stripe.api-base`,
 *       with the SDK's own network retries OFF: a retry inside the SDK could turn a "read timed out" (possibly
 *       charged) into a later "connection refused" that would wrongly read as "certainly not charged"; for the
 *       same reason the transport is {@link StripeHttpTransport}, which never re-sends a POST by itself.</li>
 *   <li>The SDK blocks: every call runs on {@code scheduler} (bounded), never on an event loop, within the SDK's
 *       connect and read time-outs (and the port's {@code TimeLimitedGateway} above it).</li>
 *   <li>{@link #find}: Stripe's Search API ({@code metadata['payment_id']} and {@code metadata['attempt']}). It
 *       cannot create anything (unlike re-sending the create, which charges when Stripe never saw the first one).
 *       Stripe's search index may lag by up to about a minute: recovery looks only after `pending-after`.</li>
 * </ul>
 * Failure kinds: connection refused, unknown host, no route → {@link GatewayUnavailableException} (never sent);
 * 401/403 and 400/404 other than an idempotency error → {@link ConnectorRefusedException} (definitely not
 * charged, not a decline: the route may fail over); time-out, 5xx, 429, idempotency conflicts → an ambiguous
 * {@link GatewayException}. A card error (402) is an outcome: FAILED with the decline code.
 */
public final class StripeGateway implements PaymentGateway {

    public static final String NAME = ConnectorProperties.STRIPE;

    private final ConnectorProperties properties;
    private final Scheduler scheduler;
    private final Map<String, StripeClient> clients = new ConcurrentHashMap<>();

    public StripeGateway(ConnectorProperties properties, Scheduler scheduler) {
        this.properties = properties;
        this.scheduler = scheduler;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Mono<GatewayOutcome> submit(ChargeRequest request) {
        return call(request, "submit", client -> {
            PaymentIntentCreateParams params = PaymentIntentCreateParams.builder()
                    .setAmount(request.amount())
                    .setCurrency(request.currency().toLowerCase(Locale.ROOT))
                    .setPaymentMethod(request.paymentMethod())
                    .addPaymentMethodType("card")
                    .setConfirm(true)
                    .putMetadata("payment_id", request.paymentId())
                    .putMetadata("attempt", Integer.toString(request.attempt()))
                    .build();
            RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.idempotencyKey()).build();
            try {
                return Optional.of(outcome(request, client.v1().paymentIntents().create(params, options)));
            } catch (CardException declined) {
                return Optional.of(declined(request, declined));
            }
        }).map(Optional::get);
    }

    @Override
    public Mono<GatewayOutcome> find(ChargeRequest request) {
        return call(request, "find", client -> {
            String query = "metadata['payment_id']:'" + request.paymentId() + "' AND metadata['attempt']:'"
                    + request.attempt() + "'";
            List<PaymentIntent> found = client.v1().paymentIntents()
                    .search(PaymentIntentSearchParams.builder().setQuery(query).setLimit(10L).build())
                    .getData();
            return found.stream()
                    .filter(intent -> intent.getMetadata() != null
                            && request.paymentId().equals(intent.getMetadata().get("payment_id"))
                            && Integer.toString(request.attempt()).equals(intent.getMetadata().get("attempt")))
                    .findFirst()
                    .map(intent -> outcome(request, intent));
        }).flatMap(Mono::justOrEmpty);
    }

    /**
     * A Refund of the attempt's PaymentIntent (the charge's reference), created with the refund id as Stripe's
     * `Idempotency-Key` and in `metadata[refund_id]`, so the same refund sent again is the same Stripe refund.
     */
    @Override
    public Mono<RefundOutcome> refund(RefundRequest request) {
        if (request.chargeReference() == null) {
            return Mono.error(new ConnectorRefusedException("Stripe refund " + request.refundId()
                    + ": the charged attempt has no PaymentIntent id"));
        }
        return call(about(request), "refund", client -> {
            RefundCreateParams params = RefundCreateParams.builder()
                    .setPaymentIntent(request.chargeReference())
                    .setAmount(request.amount())
                    .putMetadata("refund_id", request.refundId())
                    .putMetadata("payment_id", request.paymentId())
                    .build();
            RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.idempotencyKey()).build();
            return refundOutcome(request.refundId(), client.v1().refunds().create(params, options));
        });
    }

    /** The Stripe refund made for this refund id (found among its PaymentIntent's refunds by metadata), if any. */
    @Override
    public Mono<RefundOutcome> findRefund(RefundRequest request) {
        if (request.chargeReference() == null) {
            return Mono.empty();
        }
        return call(about(request), "refund look-up", client -> client.v1().refunds()
                .list(RefundListParams.builder().setPaymentIntent(request.chargeReference()).setLimit(100L).build())
                .getData().stream()
                .filter(refund -> refund.getMetadata() != null
                        && request.refundId().equals(refund.getMetadata().get("refund_id")))
                .findFirst()
                .map(refund -> refundOutcome(request.refundId(), refund)))
                .flatMap(Mono::justOrEmpty);
    }

    private static ChargeRequest about(RefundRequest request) {
        return new ChargeRequest(request.paymentId(), request.attempt(), request.amount(), request.currency(), "",
                request.merchantId(), NAME);
    }

    static RefundOutcome refundOutcome(String refundId, Refund refund) {
        Mapped mapped = mapRefund(refund.getStatus(), refund.getFailureReason());
        return new RefundOutcome(refundId, NAME, refund.getId(), mapped.status(), mapped.failureReason());
    }

    /**
     * A Stripe Refund's status in the port's words: `succeeded` → SUCCEEDED; `failed` / `canceled` → FAILED with
     * Stripe's `failure_reason` (else `refund_failed`); `pending`, `requires_action` → PROCESSING.
     */
    public static Mapped mapRefund(@Nullable String status, @Nullable String failureReason) {
        if ("succeeded".equals(status)) {
            return new Mapped(GatewayStatus.SUCCEEDED, null);
        }
        if ("failed".equals(status) || "canceled".equals(status)) {
            return new Mapped(GatewayStatus.FAILED, failureReason != null ? failureReason : "refund_failed");
        }
        return new Mapped(GatewayStatus.PROCESSING, null);
    }

    /** Maps a PaymentIntent's status to the port's words. */
    static GatewayOutcome outcome(ChargeRequest request, PaymentIntent intent) {
        Mapped mapped = map(intent.getStatus(), intent.getLastPaymentError());
        return new GatewayOutcome(request.paymentId(), request.attempt(), NAME, intent.getId(), mapped.status(),
                mapped.failureReason());
    }

    /** A PaymentIntent status (and its last error) in the port's words; null for a status that is not an outcome. */
    public record Mapped(GatewayStatus status, @Nullable String failureReason) {
    }

    public static Mapped map(String status, @Nullable StripeError lastError) {
        return map(status, lastError != null ? lastError.getCode() : null,
                lastError != null ? lastError.getDeclineCode() : null);
    }

    /**
     * `succeeded` → SUCCEEDED; `requires_payment_method` (and `canceled`) → FAILED with the last error's
     * `decline_code`, else its `code`; `requires_action` → FAILED `authentication_required` (no redirect flows);
     * anything else (`processing`, `requires_capture`, `requires_confirmation`) → PROCESSING.
     */
    public static Mapped map(String status, @Nullable String code, @Nullable String declineCode) {
        return switch (status) {
            case "succeeded" -> new Mapped(GatewayStatus.SUCCEEDED, null);
            case "requires_payment_method", "canceled" -> new Mapped(GatewayStatus.FAILED,
                    declineCode != null ? declineCode : code != null ? code
                            : status.equals("canceled") ? "canceled" : "payment_failed");
            case "requires_action" -> new Mapped(GatewayStatus.FAILED, "authentication_required");
            default -> new Mapped(GatewayStatus.PROCESSING, null);
        };
    }

    private static GatewayOutcome declined(ChargeRequest request, CardException declined) {
        StripeError error = declined.getStripeError();
        PaymentIntent intent = error != null ? error.getPaymentIntent() : null;
        String reason = declined.getDeclineCode() != null ? declined.getDeclineCode()
                : declined.getCode() != null ? declined.getCode() : "card_declined";
        String reference = intent != null && intent.getId() != null ? intent.getId()
                : "declined_" + request.idempotencyKey();
        return new GatewayOutcome(request.paymentId(), request.attempt(), NAME, reference, GatewayStatus.FAILED,
                reason);
    }

    private interface StripeCall<T> {
        T call(StripeClient client) throws StripeException;
    }

    private <T> Mono<T> call(ChargeRequest request, String what, StripeCall<T> call) {
        Callable<T> blocking = () -> {
            StripeClient client = client(request);
            try {
                return call.call(client);
            } catch (StripeException e) {
                throw translate(request, what, e);
            }
        };
        return Mono.fromCallable(blocking).subscribeOn(scheduler);
    }

    private StripeClient client(ChargeRequest request) {
        String merchantId = request.merchantId();
        ConnectorProperties.Merchant merchant = merchantId != null ? properties.merchant(merchantId) : null;
        ConnectorProperties.StripeAccount account = merchant != null ? merchant.getConnectors().getStripe() : null;
        if (account == null || account.getSecretKey() == null || account.getSecretKey().isBlank()) {
            throw new ConnectorRefusedException("merchant " + merchantId + " has no Stripe secret key configured");
        }
        ConnectorProperties.Stripe global = properties.getConnectors().getStripe();
        return clients.computeIfAbsent(merchantId, id -> StripeClient.builder()
                .setApiKey(account.getSecretKey())
                .setApiBase(stripTrailingSlash(global.getApiBase().toString()))
                .setConnectTimeout((int) global.getConnectTimeout().toMillis())
                .setReadTimeout((int) global.getReadTimeout().toMillis())
                .setMaxNetworkRetries(0)
                .setHttpClient(new StripeHttpTransport(global.getConnectTimeout(), global.getReadTimeout()))
                .build());
    }

    private static String stripTrailingSlash(String base) {
        return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    /** Stripe's exception in the port's words; the message names the payment and Stripe's code, never a key. */
    static GatewayException translate(ChargeRequest request, String what, StripeException e) {
        String about = "Stripe " + what + " of payment " + request.paymentId() + " attempt " + request.attempt();
        if (e instanceof ApiConnectionException) {
            Throwable notSent = notSentCause(e);
            if (notSent != null) {
                return new GatewayUnavailableException(about + ": not sent (" + notSent.getClass().getSimpleName()
                        + ")");
            }
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return new GatewayException(about + ": outcome unknown (" + cause.getClass().getSimpleName() + ")");
        }
        Integer status = e.getStatusCode();
        if (e instanceof IdempotencyException) {
            return new GatewayException(about + ": idempotency conflict (" + e.getCode() + "), outcome unknown");
        }
        if (e instanceof AuthenticationException
                || (e instanceof InvalidRequestException && status != null && (status == 400 || status == 404))) {
            return new ConnectorRefusedException(about + ": refused with HTTP " + status + " ("
                    + (e.getCode() != null ? e.getCode() : "no code") + "), not charged");
        }
        return new GatewayException(about + ": HTTP " + status + ", outcome unknown");
    }

    /**
     * The exception in the cause chain that proves the request never left (the connection was never made, the name
     * not resolved), or null. A reset, an end of stream or a time-out after connecting are not in this list.
     */
    static Throwable notSentCause(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof UnknownHostException
                    || cause instanceof NoRouteToHostException) {
                return cause;
            }
        }
        return null;
    }
}
