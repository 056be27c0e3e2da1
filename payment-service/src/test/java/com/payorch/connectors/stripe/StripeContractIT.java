package com.payorch.connectors.stripe;

import com.payorch.connectors.ConnectorContractTest;
import com.payorch.fakes.FakeStripe;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.Connector;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.PaymentGateway;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.http.HttpHeaders;

/** The connector contract for Stripe, against {@link FakeStripe}. */
class StripeContractIT extends ConnectorContractTest {

    private static final String SECRET = "sk_test_51FakeContractSecretKeyDoNotLog0011";
    private static final String WEBHOOK_SECRET = "whsec_FakeContractEndpointSecretDoNotLog11";
    private static final FakeStripe STRIPE = new FakeStripe(2_000).acceptKey(SECRET);
    private static final AtomicInteger TOKENS = new AtomicInteger();

    private final StripeConnector connector = connectorAt(STRIPE.baseUrl());
    private @Nullable StripeConnector unreachable;

    private static StripeConnector connectorAt(String apiBase) {
        Map<String, String> settings = Map.of(
                "payments.merchants.m.connectors.stripe.secret-key", SECRET,
                "payments.merchants.m.connectors.stripe.webhook-secret", WEBHOOK_SECRET,
                "payments.connectors.stripe.api-base", apiBase,
                "payments.connectors.stripe.read-timeout", "PT10S",
                "payments.connectors.stripe.threads", "4");
        Binder binder = new Binder(new MapConfigurationPropertySource(settings));
        return new StripeConnector(binder.bind("payments.connectors.stripe", Bindable.of(StripeSettings.class)).get(),
                binder.bind("payments", Bindable.of(StripeAccounts.class)).get(), Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        connector.destroy();
        if (unreachable != null) {
            unreachable.destroy();
        }
    }

    @AfterAll
    static void stopStripe() {
        STRIPE.close();
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
        return "pm_card_visa_contract" + TOKENS.incrementAndGet();
    }

    @Override
    protected long chargesAtTheFake(String paymentId) {
        return STRIPE.chargesFor(paymentId);
    }

    @Override
    protected boolean holds() {
        return true;
    }

    @Override
    protected long capturesAtTheFake(String paymentId) {
        return STRIPE.capturesFor(paymentId);
    }

    @Override
    protected long capturedAtTheFake(String paymentId) {
        return StripeCurrencies.UNITS.toIso(STRIPE.capturedFor(paymentId), currency()).orElseThrow();
    }

    @Override
    protected long cancelsAtTheFake(String paymentId) {
        return STRIPE.cancelsFor(paymentId);
    }

    @Override
    protected boolean armCaptureAnswerLost(String paymentId) {
        STRIPE.failNextCapture(String.valueOf(STRIPE.intentOf(paymentId, 1).get("id")),
                FakeStripe.Failure.ERROR_500_AFTER_CHARGE);
        return true;
    }

    @Override
    protected ChargeRequest arm(Failure failure, ChargeRequest request) {
        switch (failure) {
            case REFUSED -> STRIPE.failNext(request.paymentMethod(), FakeStripe.Failure.UNAUTHORIZED);
            case AMBIGUOUS_AFTER_CHARGE -> STRIPE.failNext(request.paymentMethod(),
                    FakeStripe.Failure.ERROR_500_AFTER_CHARGE);
            case AMBIGUOUS_BEFORE_CHARGE -> STRIPE.failNext(request.paymentMethod(),
                    FakeStripe.Failure.ERROR_500_BEFORE_CHARGE);
            case NOT_SENT -> {
            }
        }
        return request;
    }

    @Override
    protected PaymentGateway gatewayFor(Failure failure) {
        if (failure != Failure.NOT_SENT) {
            return connector.gateway();
        }
        unreachable = connectorAt("http://127.0.0.1:" + closedPort());
        return unreachable.gateway();
    }

    @Override
    protected RawWebhook succeeded(GatewayOutcome charge, long amount, String currency) {
        return webhook(charge, WEBHOOK_SECRET);
    }

    @Override
    protected RawWebhook forged(GatewayOutcome charge, long amount, String currency) {
        return webhook(charge, "whsec_NotTheMerchantsSecretAtAll000000000");
    }

    private static RawWebhook webhook(GatewayOutcome charge, String secret) {
        String payload = FakeStripe.event("evt_" + UUID.randomUUID().toString().replace("-", ""),
                "payment_intent.succeeded", STRIPE.intent(charge.reference()), FakeStripe.API_VERSION);
        HttpHeaders headers = new HttpHeaders();
        headers.set("Stripe-Signature", FakeStripe.sign(payload, secret, Instant.now().getEpochSecond()));
        return new RawWebhook(headers, payload.getBytes(StandardCharsets.UTF_8));
    }
}
