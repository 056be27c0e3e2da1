package com.payorch.connectors.braintree;

import com.braintreegateway.Configuration;
import com.braintreegateway.Environment;
import com.braintreegateway.ResourceCollection;
import com.braintreegateway.Result;
import com.braintreegateway.Transaction;
import com.braintreegateway.TransactionGateway;
import com.braintreegateway.TransactionRefundRequest;
import com.braintreegateway.TransactionRequest;
import com.braintreegateway.TransactionSearchRequest;
import com.braintreegateway.ValidationError;
import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import java.net.http.HttpClient;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Braintree through the official `braintree-java` SDK (XML over HTTPS to `{base-url}/merchants/{merchant-id}/…`).
 * <ul>
 *   <li>One attempt is one sale (`POST …/transactions`, `type=sale`) with `options.submitForSettlement=true`, the
 *       amount as a decimal in the currency's unit, the payment method as `paymentMethodNonce`, and the attempt's
 *       idempotency key as the transaction's `orderId`. A manual-capture attempt's sale is only authorised (no
 *       `submitForSettlement`); its capture and release are {@link BraintreeHolds}.</li>
 *   <li>Braintree has no idempotency keys, so every submit first searches the sales by that `orderId`
 *       (`POST …/transactions/advanced_search_ids`, then `…/advanced_search`) and answers the transaction found
 *       instead of making a second one. {@link #find} is that search. A refund is a `POST
 *       …/transactions/{id}/refund` with our refund id as the credit's `orderId`, after the same look-up among the
 *       credits. The look-up cannot close every window (docs/connectors.md, "Braintree").</li>
 *   <li>A 422 answer with a transaction (declined, gateway rejected) is an outcome ({@link BraintreeStatuses}); a
 *       422 with validation errors only created nothing: {@link ConnectorRefusedException}. Other failures:
 *       {@link BraintreeFailures}.</li>
 *   <li>The SDK blocks: every call runs on this connector's own bounded {@code scheduler}, never on an event loop,
 *       and on {@link BraintreeHttpTransport}, which never re-sends a POST by itself.</li>
 * </ul>
 */
public final class BraintreeGateway implements PaymentGateway {

    public static final String NAME = "braintree";

    private final BraintreeSettings settings;
    private final BraintreeAccounts accounts;
    private final Scheduler scheduler;
    private final HttpClient http;
    private final Map<String, TransactionGateway> transactions = new ConcurrentHashMap<>();

    public BraintreeGateway(BraintreeSettings settings, BraintreeAccounts accounts, Scheduler scheduler) {
        this.settings = settings;
        this.accounts = accounts;
        this.scheduler = scheduler;
        this.http = BraintreeHttpTransport.newClient(settings.getConnectTimeout(),
                "https".equalsIgnoreCase(settings.getBaseUrl().getScheme()));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Mono<GatewayOutcome> submit(ChargeRequest request) {
        return call(request.merchantId(), about("submit", request), braintree -> {
            Optional<Transaction> made = byOrderId(braintree, request.idempotencyKey(), Transaction.Type.SALE, null);
            if (made.isPresent()) {
                return outcome(request, made.get());
            }
            TransactionRequest sale = new TransactionRequest()
                    .amount(BraintreeAmounts.decimal(request.amount(), request.currency()))
                    .orderId(request.idempotencyKey())
                    .paymentMethodNonce(request.paymentMethod());
            if (!request.manualCapture()) {
                sale.options().submitForSettlement(true).done();
            }
            return outcome(request, made(braintree.sale(sale), about("submit", request)));
        });
    }

    /**
     * Empty only when Braintree's search by the attempt's `orderId` answered and holds no sale: Braintree confirms
     * nothing was charged. A recorded transaction id is fetched by id. A look-up that could not ask (refused keys,
     * no connection, a time-out) is no evidence either way: a plain {@link GatewayException}.
     */
    @Override
    public Mono<GatewayOutcome> find(ChargeRequest request) {
        String about = about("look-up", request);
        return call(request.merchantId(), about, braintree -> request.reference() != null
                        ? Optional.of(outcome(request, braintree.find(request.reference())))
                        : byOrderId(braintree, request.idempotencyKey(), Transaction.Type.SALE, null)
                                .map(transaction -> outcome(request, transaction)))
                .onErrorMap(failure -> failure.getClass() != GatewayException.class,
                        failure -> new GatewayException(about + " did not answer: no evidence either way", failure))
                .flatMap(Mono::justOrEmpty);
    }

    /** {@link BraintreeHolds#capture}: `submit_for_settlement` with the amount, after a look at the sale. */
    @Override
    public Mono<GatewayOutcome> capture(CaptureRequest request) {
        String about = about("capture " + request.number(), request.charge());
        return call(request.charge().merchantId(), about,
                braintree -> BraintreeHolds.capture(braintree, request, about));
    }

    /** {@link BraintreeHolds#cancel}: a void of the authorised sale, after a look at it. */
    @Override
    public Mono<GatewayOutcome> cancel(CancelRequest request) {
        String about = about("release", request.charge());
        return call(request.charge().merchantId(), about,
                braintree -> BraintreeHolds.cancel(braintree, request, about));
    }

    /**
     * A credit of the settled sale; an orphaned charge Braintree has not settled yet (a hold's authorisation, or a
     * sale still `submitted_for_settlement`) is voided instead, which gives it back whole.
     */
    @Override
    public Mono<RefundOutcome> refund(RefundRequest request) {
        String about = "Braintree refund " + request.refundId() + " of payment " + request.paymentId();
        if (request.chargeReference() == null) {
            return Mono.error(new ConnectorRefusedException(about + ": the charged attempt has no transaction id"));
        }
        return call(request.merchantId(), about, braintree -> {
            Optional<Transaction> made = byOrderId(braintree, request.idempotencyKey(), Transaction.Type.CREDIT,
                    request.chargeReference());
            if (made.isPresent()) {
                return refundOutcome(request, made.get());
            }
            if (request.orphanedCharge()) {
                Optional<Transaction> voided = BraintreeHolds.voidUnsettled(braintree, request.chargeReference(),
                        about);
                if (voided.isPresent()) {
                    return givenBack(request, voided.get());
                }
            }
            TransactionRefundRequest refund = new TransactionRefundRequest()
                    .amount(BraintreeAmounts.decimal(request.amount(), request.currency()))
                    .orderId(request.idempotencyKey());
            return refundOutcome(request, made(braintree.refund(request.chargeReference(), refund), about));
        });
    }

    @Override
    public Mono<RefundOutcome> findRefund(RefundRequest request) {
        if (request.chargeReference() == null) {
            return Mono.empty();
        }
        return call(request.merchantId(), "Braintree refund look-up " + request.refundId(), braintree ->
                byOrderId(braintree, request.idempotencyKey(), Transaction.Type.CREDIT, request.chargeReference())
                        .map(transaction -> refundOutcome(request, transaction))
                        .or(() -> request.orphanedCharge()
                                ? BraintreeHolds.released(braintree, request.chargeReference())
                                        .map(sale -> givenBack(request, sale))
                                : Optional.empty()))
                .flatMap(Mono::justOrEmpty);
    }

    private static String about(String what, ChargeRequest request) {
        return "Braintree " + what + " of payment " + request.paymentId() + " attempt " + request.attempt();
    }

    /** The transaction of this type Braintree holds under the order id (of that sale, for a credit), if any. */
    static Optional<Transaction> byOrderId(TransactionGateway braintree, String orderId,
                                                   Transaction.Type type, @Nullable String refundedTransactionId) {
        ResourceCollection<Transaction> found = braintree.search(new TransactionSearchRequest().orderId().is(orderId));
        return StreamSupport.stream(found.spliterator(), false)
                .filter(transaction -> orderId.equals(transaction.getOrderId()) && transaction.getType() == type)
                .filter(transaction -> refundedTransactionId == null
                        || refundedTransactionId.equals(transaction.getRefundedTransactionId()))
                .findFirst();
    }

    /** The transaction a sale or refund made (approved or not), or a refusal when it made none. */
    private static Transaction made(Result<Transaction> result, String about) {
        if (result.isSuccess() && result.getTarget() != null) {
            return result.getTarget();
        }
        if (result.getTransaction() != null) {
            return result.getTransaction();
        }
        String codes = result.getErrors() == null ? "" : result.getErrors().getAllDeepValidationErrors().stream()
                .map(ValidationError::getCode).map(Object::toString).collect(Collectors.joining(","));
        throw new ConnectorRefusedException(about + ": refused with validation errors [" + codes + "], nothing made");
    }

    static GatewayOutcome outcome(ChargeRequest request, Transaction transaction) {
        if (transaction.getId() == null) {
            throw new GatewayException(about("submit", request) + ": a transaction without id, outcome unknown");
        }
        MappedStatus mapped = BraintreeStatuses.of(transaction, request.manualCapture());
        return new GatewayOutcome(request.paymentId(), request.attempt(), NAME, transaction.getId(), mapped.status(),
                mapped.failureReason());
    }

    /** An orphaned sale that holds nothing any more (voided, or its authorisation lapsed): given back. */
    private static RefundOutcome givenBack(RefundRequest request, Transaction sale) {
        return new RefundOutcome(request.refundId(), NAME, sale.getId(), GatewayStatus.SUCCEEDED, null);
    }

    static RefundOutcome refundOutcome(RefundRequest request, Transaction credit) {
        MappedStatus mapped = BraintreeStatuses.of(credit);
        return new RefundOutcome(request.refundId(), NAME, credit.getId(), mapped.status(), mapped.failureReason());
    }

    private <T> Mono<T> call(@Nullable String merchantId, String about, Function<TransactionGateway, T> call) {
        return Mono.fromCallable(() -> {
            try {
                return call.apply(transactions(merchantId));
            } catch (RuntimeException e) {
                throw BraintreeFailures.translate(about, e);
            }
        }).subscribeOn(scheduler);
    }

    private TransactionGateway transactions(@Nullable String merchantId) {
        BraintreeAccounts.Account account = accounts.of(merchantId);
        if (account == null) {
            throw new ConnectorRefusedException("merchant " + merchantId + " has no Braintree merchant id and keys"
                    + " configured");
        }
        return transactions.computeIfAbsent(merchantId, id -> {
            Configuration configuration = configuration(settings, account);
            return new TransactionGateway(new BraintreeHttpTransport(configuration, http, settings.getReadTimeout()),
                    configuration);
        });
    }

    /** The SDK's configuration of one merchant, pointed at `payments.connectors.braintree.base-url`. */
    static Configuration configuration(BraintreeSettings settings, BraintreeAccounts.Account account) {
        String base = settings.getBaseUrl().toString();
        base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        Environment environment = new Environment(base, base, BraintreeHttpTransport.BRAINTREE_CAS, "payorch");
        Configuration configuration = new Configuration(environment, account.getMerchantId(), account.getPublicKey(),
                account.getPrivateKey());
        configuration.setConnectTimeout((int) settings.getConnectTimeout().toMillis());
        configuration.setTimeout((int) settings.getReadTimeout().toMillis());
        return configuration;
    }
}
