package com.payorch.connectors.stripe;

import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.FailureKinds;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.MappedStatus;
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
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Stripe through the official `stripe-java` SDK. One attempt is one PaymentIntent created with `confirm=true`, the
 * attempt's idempotency key as Stripe's `Idempotency-Key`, `metadata[payment_id]` and `metadata[attempt]`; a manual
 * submit adds `capture_method=manual` (a hold, `requires_capture` → AUTHORIZED), captured and released by
 * {@link StripeHolds}. A submit with a `returnUrl` sends it as `return_url`: a card that needs 3-D Secure then ends
 * `requires_action` with a `redirect_to_url` page, REQUIRES_ACTION; the customer's way back is settled by Stripe's
 * events, or by looking the PaymentIntent up ({@link #complete} is the port's default, {@link #find}); a payment
 * whose customer never comes back is cancelled like a hold ({@link StripeHolds#cancel}).
 * <ul>
 *   <li>One {@link StripeClient} per merchant (its secret key), all pointed at `payments.connectors.stripe.api-base`,
 *       with the SDK's own network retries OFF: a retry inside the SDK could turn a "read timed out" (possibly
 *       charged) into a later "connection refused" that would wrongly read as "certainly not charged"; for the
 *       same reason the transport is {@link StripeHttpTransport}, which never re-sends a POST by itself.</li>
 *   <li>The SDK blocks: every call runs on {@code scheduler} (bounded), never on an event loop, within the SDK's
 *       connect and read time-outs (and the port's {@code TimeLimitedGateway} above it).</li>
 *   <li>Amounts go out in Stripe's units ({@link StripeCurrencies}); one Stripe cannot take exactly (MGA with
 *       fractions, more than 8 digits, a three-decimal amount not ending in 0) is refused before anything is sent.</li>
 *   <li>{@link #find}: a recorded PaymentIntent id is retrieved by id ({@code GET /v1/payment_intents/{id}}), never
 *       searched for. Without one, Stripe's Search API ({@code metadata['payment_id']} and {@code metadata['attempt']}),
 *       which cannot create anything (unlike re-sending the create). Stripe's search index lags ("data is searchable
 *       in under 1 minute", https://docs.stripe.com/search), so an empty search is evidence of "no charge" only once
 *       `payments.connectors.stripe.search-delay` has passed since the attempt was sent. The gateway knows when
 *       it sent the attempts this instance sent; for any other attempt it assumes what recovery guarantees: it asks
 *       no earlier than `pending-after` after the attempt began, which must not be shorter than the search delay.
 *       Any failure of a look-up is a plain {@link GatewayException}: no evidence either way.</li>
 * </ul>
 * Failure kinds: connection refused, unknown host, no route → {@link GatewayUnavailableException} (never sent);
 * 401/403 and 400/404 other than an idempotency error → {@link ConnectorRefusedException} (definitely not
 * charged, not a decline: the route may fail over); time-out, 5xx, 429, idempotency conflicts → an ambiguous
 * {@link GatewayException}. A card error (402) is an outcome: FAILED with the decline code.
 */
public final class StripeGateway implements PaymentGateway {

    public static final String NAME = "stripe";

    private final StripeSettings settings;
    private final StripeAccounts accounts;
    private final Scheduler scheduler;
    private final Clock clock;
    private final Map<String, StripeClient> clients = new ConcurrentHashMap<>();
    /** When this instance last sent each attempt's create (by idempotency key), kept for the search delay. */
    private final Map<String, Instant> sentAt = new ConcurrentHashMap<>();
    private final AtomicReference<Instant> lastPruned = new AtomicReference<>(Instant.MIN);
    private final StripeHolds holds = new StripeHolds(this);

    public StripeGateway(StripeSettings settings, StripeAccounts accounts, Scheduler scheduler) {
        this(settings, accounts, scheduler, Clock.systemUTC());
    }

    public StripeGateway(StripeSettings settings, StripeAccounts accounts, Scheduler scheduler, Clock clock) {
        this.settings = settings;
        this.accounts = accounts;
        this.scheduler = scheduler;
        this.clock = clock;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Mono<GatewayOutcome> submit(ChargeRequest request) {
        OptionalLong amount = stripeAmount(request.amount(), request.currency());
        if (amount.isEmpty()) {
            return Mono.error(cannotExpress(request.amount(), request.currency(), "payment " + request.paymentId()));
        }
        return call(request, "submit", client -> {
            noteSent(request);
            PaymentIntentCreateParams.Builder builder = PaymentIntentCreateParams.builder();
            if (request.manualCapture()) {
                builder.setCaptureMethod(PaymentIntentCreateParams.CaptureMethod.MANUAL);
            }
            if (request.customerCanAct()) {
                builder.setReturnUrl(request.returnUrl());
            }
            PaymentIntentCreateParams params = builder
                    .setAmount(amount.getAsLong())
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
    public Mono<GatewayOutcome> capture(CaptureRequest request) {
        return holds.capture(request);
    }

    @Override
    public Mono<GatewayOutcome> cancel(CancelRequest request) {
        return holds.cancel(request);
    }

    @Override
    public Mono<GatewayOutcome> find(ChargeRequest request) {
        Mono<GatewayOutcome> lookUp = recordedIntentId(request) != null ? retrieve(request) : search(request);
        return lookUp.onErrorMap(GatewayException.class, StripeGateway::noEvidence);
    }

    /** The recorded reference when it is a PaymentIntent id (a decline without one is recorded as `declined_…`). */
    static String recordedIntentId(ChargeRequest request) {
        String reference = request.reference();
        return reference != null && reference.startsWith("pi_") ? reference : null;
    }

    private Mono<GatewayOutcome> retrieve(ChargeRequest request) {
        String intentId = recordedIntentId(request);
        return call(request, "retrieve of " + intentId, client -> {
            PaymentIntent intent = client.v1().paymentIntents().retrieve(intentId);
            if (!isOf(intent, request)) {
                throw new GatewayException("Stripe PaymentIntent " + intentId + " is not payment "
                        + request.paymentId() + " attempt " + request.attempt() + " (its metadata: "
                        + intent.getMetadata() + ")");
            }
            return outcome(request, intent);
        });
    }

    private Mono<GatewayOutcome> search(ChargeRequest request) {
        return call(request, "search", client -> {
            String query = "metadata['payment_id']:'" + request.paymentId() + "' AND metadata['attempt']:'"
                    + request.attempt() + "'";
            List<PaymentIntent> found = client.v1().paymentIntents()
                    .search(PaymentIntentSearchParams.builder().setQuery(query).setLimit(10L).build())
                    .getData();
            Optional<GatewayOutcome> outcome = found.stream()
                    .filter(intent -> isOf(intent, request))
                    .findFirst()
                    .map(intent -> outcome(request, intent));
            if (outcome.isEmpty() && sentWithinSearchDelay(request)) {
                throw new GatewayException("Stripe search of payment " + request.paymentId() + " attempt "
                        + request.attempt() + " found nothing, but the attempt was sent less than "
                        + settings.getSearchDelay() + " ago: search not yet trustworthy");
            }
            return outcome;
        }).flatMap(Mono::justOrEmpty);
    }

    private static boolean isOf(PaymentIntent intent, ChargeRequest request) {
        return intent.getMetadata() != null
                && request.paymentId().equals(intent.getMetadata().get("payment_id"))
                && Integer.toString(request.attempt()).equals(intent.getMetadata().get("attempt"));
    }

    /** A look-up that failed, for whatever reason, tells nothing (not even a "definitely not charged"). */
    private static GatewayException noEvidence(GatewayException e) {
        return e.getClass() == GatewayException.class ? e
                : new GatewayException(e.getMessage() + " (a failed look-up: no evidence)", e);
    }

    private void noteSent(ChargeRequest request) {
        Instant now = clock.instant();
        sentAt.put(request.idempotencyKey(), now);
        Instant pruned = lastPruned.get();
        if (pruned.isBefore(now.minus(settings.getSearchDelay())) && lastPruned.compareAndSet(pruned, now)) {
            Instant cutoff = now.minus(settings.getSearchDelay());
            sentAt.values().removeIf(sent -> sent.isBefore(cutoff));
        }
    }

    private boolean sentWithinSearchDelay(ChargeRequest request) {
        Instant sent = sentAt.get(request.idempotencyKey());
        return sent != null && clock.instant().isBefore(sent.plus(settings.getSearchDelay()));
    }

    /** The amount in Stripe's units, or empty when Stripe cannot take it exactly. */
    static OptionalLong stripeAmount(long isoAmount, String currency) {
        OptionalLong converted = StripeCurrencies.UNITS.toConnector(isoAmount, currency);
        return converted.isPresent() && StripeCurrencies.expressible(converted.getAsLong(), currency) ? converted
                : OptionalLong.empty();
    }

    static ConnectorRefusedException cannotExpress(long amount, String currency, String what) {
        return new ConnectorRefusedException("Stripe cannot take the amount " + amount + " " + currency + " of " + what
                + " exactly (" + StripeCurrencies.SOURCE + "): nothing sent");
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
        OptionalLong amount = stripeAmount(request.amount(), request.currency());
        if (amount.isEmpty()) {
            return Mono.error(cannotExpress(request.amount(), request.currency(), "refund " + request.refundId()));
        }
        if (request.orphanedCharge()) {
            return holds.giveBack(request, about(request), amount.getAsLong());
        }
        return create(request, amount.getAsLong());
    }

    /** A Refund of {@code stripeAmount} (Stripe's units) of the request's PaymentIntent. */
    Mono<RefundOutcome> create(RefundRequest request, long stripeAmount) {
        return call(about(request), "refund", client -> {
            RefundCreateParams params = RefundCreateParams.builder()
                    .setPaymentIntent(request.chargeReference())
                    .setAmount(stripeAmount)
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

    static ChargeRequest about(RefundRequest request) {
        return new ChargeRequest(request.paymentId(), request.attempt(), request.amount(), request.currency(), "",
                request.merchantId(), NAME);
    }

    static RefundOutcome refundOutcome(String refundId, Refund refund) {
        MappedStatus mapped = StripeStatuses.refund(refund.getStatus(), refund.getFailureReason());
        return new RefundOutcome(refundId, NAME, refund.getId(), mapped.status(), mapped.failureReason());
    }

    /**
     * Maps a PaymentIntent's status to the port's words: one waiting for a customer who can act (the request has a
     * `returnUrl`) on Stripe's redirect page is REQUIRES_ACTION with that page, whether just confirmed or looked up.
     */
    static GatewayOutcome outcome(ChargeRequest request, PaymentIntent intent) {
        PaymentIntent.NextAction next = intent.getNextAction();
        String redirect = StripeStatuses.redirectUrl(intent.getStatus(), next != null ? next.getType() : null,
                next != null && next.getRedirectToUrl() != null ? next.getRedirectToUrl().getUrl() : null);
        if (redirect != null && request.customerCanAct()) {
            return GatewayOutcome.requiresAction(request.paymentId(), request.attempt(), NAME, intent.getId(),
                    redirect);
        }
        MappedStatus mapped = StripeStatuses.charge(intent.getStatus(),
                StripeStatuses.manual(intent.getCaptureMethod()), intent.getLastPaymentError());
        String reason = mapped.status() == GatewayStatus.CANCELLED
                ? StripeStatuses.cancelReason(intent.getCancellationReason()) : mapped.failureReason();
        return new GatewayOutcome(request.paymentId(), request.attempt(), NAME, intent.getId(), mapped.status(),
                reason);
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

    interface StripeCall<T> {
        T call(StripeClient client) throws StripeException;
    }

    <T> Mono<T> call(ChargeRequest request, String what, StripeCall<T> call) {
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
        StripeAccounts.Account account = accounts.account(merchantId);
        if (account == null || account.getSecretKey() == null || account.getSecretKey().isBlank()) {
            throw new ConnectorRefusedException("merchant " + merchantId + " has no Stripe secret key configured");
        }
        return clients.computeIfAbsent(merchantId, id -> StripeClient.builder()
                .setApiKey(account.getSecretKey())
                .setApiBase(stripTrailingSlash(settings.getApiBase().toString()))
                .setConnectTimeout((int) settings.getConnectTimeout().toMillis())
                .setReadTimeout((int) settings.getReadTimeout().toMillis())
                .setMaxNetworkRetries(0)
                .setHttpClient(new StripeHttpTransport(settings.getConnectTimeout(), settings.getReadTimeout()))
                .build());
    }

    private static String stripTrailingSlash(String base) {
        return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    /** Stripe's exception in the port's words ({@link FailureKinds}); the message names the payment and Stripe's code. */
    public static GatewayException translate(ChargeRequest request, String what, StripeException e) {
        String about = "Stripe " + what + " of payment " + request.paymentId() + " attempt " + request.attempt();
        if (e instanceof ApiConnectionException) {
            return FailureKinds.transportFailure(about, e);
        }
        Integer status = e.getStatusCode();
        if (e instanceof IdempotencyException) {
            return new GatewayException(about + ": idempotency conflict (" + e.getCode() + "), outcome unknown");
        }
        if (e instanceof AuthenticationException
                || (e instanceof InvalidRequestException && status != null && (status == 400 || status == 404))) {
            return FailureKinds.refused(about, "HTTP " + status + " (" + (e.getCode() != null ? e.getCode()
                    : "no code") + ")");
        }
        return FailureKinds.ambiguous(about, "HTTP " + status);
    }
}
