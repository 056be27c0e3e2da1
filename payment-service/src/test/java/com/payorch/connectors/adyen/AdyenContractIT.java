package com.payorch.connectors.adyen;

import com.payorch.connectors.ConnectorContractTest;
import com.payorch.fakes.FakeAdyen;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.Connector;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.PaymentGateway;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.http.HttpHeaders;
import reactor.test.StepVerifier;

/**
 * The connector contract for Adyen, against {@link FakeAdyen}. A revoked key is played by a merchant whose API key
 * the fake does not accept. Checkout has no look-up: the connector answers a {@link GatewayException} (no evidence),
 * never empty, which since contract v3 would mean "confirmed: no charge" (issue 22, finding 1).
 */
class AdyenContractIT extends ConnectorContractTest {

    private static final String API_KEY = "AQE_FakeContractAdyenKeyDoNotLog_0012";
    private static final String ACCOUNT = "PayorchContractECOM";
    private static final String HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    private static final String OTHER_HMAC_KEY = "0000000000000000000000000000000000000000000000000000000000000000";
    private static final FakeAdyen ADYEN = new FakeAdyen().acceptKey(API_KEY);
    private static final AtomicInteger TOKENS = new AtomicInteger();

    private final List<AdyenConnector> started = new ArrayList<>();
    private final AdyenConnector connector = connectorAt(ADYEN.checkoutUrl(), API_KEY);

    private AdyenConnector connectorAt(String checkoutUrl, String apiKey) {
        Map<String, String> settings = Map.of(
                "payments.merchants.m.connectors.adyen.api-key", apiKey,
                "payments.merchants.m.connectors.adyen.merchant-account", ACCOUNT,
                "payments.merchants.m.connectors.adyen.hmac-key", HMAC_KEY,
                "payments.connectors.adyen.checkout-url", checkoutUrl,
                "payments.connectors.adyen.read-timeout", "PT10S",
                "payments.connectors.adyen.threads", "4");
        Binder binder = new Binder(new MapConfigurationPropertySource(settings));
        AdyenConnector plugged = new AdyenConnector(
                binder.bind("payments.connectors.adyen", Bindable.of(AdyenSettings.class)).get(),
                binder.bind("payments", Bindable.of(AdyenAccounts.class)).get(),
                (connector, merchant, detail) -> { });
        started.add(plugged);
        return plugged;
    }

    /**
     * Contract v3: empty from a look-up is evidence ("confirmed: no charge"), so Adyen, which cannot look up, answers
     * no evidence, for a charged attempt and for one never sent alike. (The abstract contract's v2 expectation, "a
     * connector without LOOKUP answers nothing", no longer holds for Adyen.)
     */
    @Test
    void aLookUpIsNoEvidenceAtAdyenWhetherOrNotTheAttemptCharged() {
        ChargeRequest charged = newRequest();
        connector().gateway().submit(charged).block(Duration.ofSeconds(30));

        for (ChargeRequest asked : List.of(charged, newRequest())) {
            StepVerifier.create(connector().gateway().find(asked))
                    .expectErrorSatisfies(error -> org.assertj.core.api.Assertions.assertThat(error)
                            .isInstanceOf(GatewayException.class).hasMessageContaining("no look-up by reference"))
                    .verify(Duration.ofSeconds(10));
        }
    }

    @AfterEach
    void stop() {
        started.forEach(AdyenConnector::destroy);
    }

    @AfterAll
    static void stopAdyen() {
        ADYEN.close();
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
        return "pm_stored_contract" + TOKENS.incrementAndGet();
    }

    @Override
    protected long chargesAtTheFake(String paymentId) {
        return ADYEN.paymentsFor(paymentId).size();
    }

    @Override
    protected boolean holds() {
        return true;
    }

    @Override
    protected long capturesAtTheFake(String paymentId) {
        return ADYEN.capturesFor(paymentId).size();
    }

    @Override
    protected long capturedAtTheFake(String paymentId) {
        return AdyenCurrencies.UNITS.toIso(ADYEN.capturedFor(paymentId), currency()).orElseThrow();
    }

    @Override
    protected long cancelsAtTheFake(String paymentId) {
        return ADYEN.cancelsOfAnyKindFor(paymentId);
    }

    @Override
    protected boolean armCaptureAnswerLost(String paymentId) {
        List<Map<String, Object>> made = ADYEN.paymentsFor(paymentId);
        ADYEN.loseNextCaptureAnswer((String) made.get(made.size() - 1).get("pspReference"));
        return true;
    }

    @Override
    protected ChargeRequest arm(Failure failure, ChargeRequest request) {
        switch (failure) {
            case AMBIGUOUS_AFTER_CHARGE -> ADYEN.failNext(request.paymentMethod(),
                    FakeAdyen.Failure.ERROR_500_AFTER_CHARGE);
            case AMBIGUOUS_BEFORE_CHARGE -> ADYEN.failNext(request.paymentMethod(),
                    FakeAdyen.Failure.ERROR_500_BEFORE_CHARGE);
            case NOT_SENT, REFUSED -> {
            }
        }
        return request;
    }

    @Override
    protected PaymentGateway gatewayFor(Failure failure) {
        return switch (failure) {
            case NOT_SENT -> connectorAt("http://127.0.0.1:" + closedPort() + "/v71", API_KEY).gateway();
            case REFUSED -> connectorAt(ADYEN.checkoutUrl(), "AQE_RevokedContractKeyDoNotLog").gateway();
            default -> connector.gateway();
        };
    }

    @Override
    protected RawWebhook succeeded(GatewayOutcome charge, long amount, String currency) {
        return notification(charge, amount, currency, HMAC_KEY);
    }

    @Override
    protected RawWebhook forged(GatewayOutcome charge, long amount, String currency) {
        return notification(charge, amount, currency, OTHER_HMAC_KEY);
    }

    private static RawWebhook notification(GatewayOutcome charge, long amount, String currency, String signWith) {
        String batch = FakeAdyen.notification(ACCOUNT, HMAC_KEY, List.of(Map.of("pspReference", charge.reference(),
                "merchantReference", charge.paymentId(), "success", true, "value", amount, "currency", currency,
                "reason", "", "signWith", signWith)));
        HttpHeaders headers = new HttpHeaders();
        headers.set("Content-Type", "application/json");
        return new RawWebhook(headers, batch.getBytes(StandardCharsets.UTF_8));
    }
}
