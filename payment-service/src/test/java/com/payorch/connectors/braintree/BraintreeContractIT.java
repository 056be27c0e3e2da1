package com.payorch.connectors.braintree;

import com.payorch.connectors.ConnectorContractTest;
import com.payorch.fakes.FakeBraintree;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.Connector;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.PaymentGateway;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.http.HttpHeaders;

/**
 * The connector contract for Braintree, against {@link FakeBraintree}. Braintree has no idempotency key: the same
 * attempt is found by its order id before anything is sent again. A sale settles by the fake's hand, then its
 * `transaction_settled` webhook binds it. It holds: a manual sale is only authorised, captured by
 * `submit_for_settlement` and released by a void.
 */
class BraintreeContractIT extends ConnectorContractTest {

    private static final String BT_MERCHANT = "bt_payorch_contract";
    private static final String PUBLIC_KEY = "pub_FakeBraintreeContractKey11";
    private static final String PRIVATE_KEY = "priv_FakeBraintreeContractKeyDoNotLog11";
    private static final FakeBraintree BRAINTREE = new FakeBraintree()
            .acceptKeys(BT_MERCHANT, PUBLIC_KEY, PRIVATE_KEY);
    private static final AtomicInteger NONCES = new AtomicInteger();

    private final List<BraintreeConnector> started = new ArrayList<>();
    private final BraintreeConnector connector = connectorAt(BRAINTREE.baseUrl());

    private BraintreeConnector connectorAt(String baseUrl) {
        Map<String, String> settings = Map.of(
                "payments.merchants.m.connectors.braintree.merchant-id", BT_MERCHANT,
                "payments.merchants.m.connectors.braintree.public-key", PUBLIC_KEY,
                "payments.merchants.m.connectors.braintree.private-key", PRIVATE_KEY,
                "payments.connectors.braintree.base-url", baseUrl,
                "payments.connectors.braintree.threads", "4");
        Binder binder = new Binder(new MapConfigurationPropertySource(settings));
        BraintreeConnector plugged = new BraintreeConnector(
                binder.bind("payments.connectors.braintree", Bindable.of(BraintreeSettings.class)).get(),
                binder.bind("payments", Bindable.of(BraintreeAccounts.class)).get());
        started.add(plugged);
        return plugged;
    }

    @AfterEach
    void stop() {
        started.forEach(BraintreeConnector::destroy);
    }

    @AfterAll
    static void stopBraintree() {
        BRAINTREE.close();
    }

    @Override
    protected Connector connector() {
        return connector;
    }

    @Override
    protected String merchantId() {
        return "m";
    }

    @Override
    protected String chargeableToken() {
        return "fake-valid-nonce-contract" + NONCES.incrementAndGet();
    }

    @Override
    protected long chargesAtTheFake(String paymentId) {
        return BRAINTREE.withOrderId(paymentId).size();
    }

    @Override
    protected ChargeRequest arm(Failure failure, ChargeRequest request) {
        switch (failure) {
            case REFUSED -> BRAINTREE.failNext(request.paymentMethod(), FakeBraintree.Failure.UNAUTHORIZED);
            case AMBIGUOUS_AFTER_CHARGE -> BRAINTREE.failNext(request.paymentMethod(),
                    FakeBraintree.Failure.LOSE_RESPONSE_AFTER_CHARGE);
            case AMBIGUOUS_BEFORE_CHARGE -> BRAINTREE.failNext(request.paymentMethod(),
                    FakeBraintree.Failure.ERROR_500_BEFORE_CHARGE);
            case NOT_SENT -> {
            }
        }
        return request;
    }

    @Override
    protected PaymentGateway gatewayFor(Failure failure) {
        return failure == Failure.NOT_SENT ? connectorAt("http://127.0.0.1:" + closedPort()).gateway()
                : connector.gateway();
    }

    @Override
    protected boolean holds() {
        return true;
    }

    @Override
    protected long capturesAtTheFake(String paymentId) {
        return BRAINTREE.capturesOf(paymentId);
    }

    @Override
    protected long capturedAtTheFake(String paymentId) {
        return BraintreeAmounts.minorUnits(BRAINTREE.capturedOf(paymentId), currency());
    }

    @Override
    protected long cancelsAtTheFake(String paymentId) {
        return BRAINTREE.voidsOf(paymentId);
    }

    /** Braintree captures, then answers 500: the capture exists, the service does not know it. */
    @Override
    protected boolean armCaptureAnswerLost(String paymentId) {
        BRAINTREE.failNextCapture(paymentId, FakeBraintree.Failure.ERROR_500_AFTER_CHARGE);
        return true;
    }

    /** Braintree refunds only settled sales. */
    @Override
    protected void settle(GatewayOutcome charge) {
        BRAINTREE.settle(charge.reference());
    }

    @Override
    protected RawWebhook succeeded(GatewayOutcome charge, long amount, String currency) {
        BRAINTREE.settle(charge.reference());
        return webhook(charge, PRIVATE_KEY);
    }

    @Override
    protected RawWebhook forged(GatewayOutcome charge, long amount, String currency) {
        return webhook(charge, "priv_NotTheMerchantsBraintreeKey00");
    }

    private static RawWebhook webhook(GatewayOutcome charge, String privateKey) {
        String form = BRAINTREE.webhook("transaction_settled", charge.reference(), PUBLIC_KEY, privateKey);
        HttpHeaders headers = new HttpHeaders();
        headers.set("Content-Type", "application/x-www-form-urlencoded");
        return new RawWebhook(headers, form.getBytes(StandardCharsets.UTF_8));
    }
}
