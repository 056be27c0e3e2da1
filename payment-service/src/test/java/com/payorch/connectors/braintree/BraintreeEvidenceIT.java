package com.payorch.connectors.braintree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.fakes.FakeBraintree;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Issue 22 (give up only on evidence) at Braintree: its look-up is the search by the attempt's `orderId`, so an
 * empty answer is Braintree confirming it holds no sale for the attempt; a look-up that could not ask (refused keys,
 * no connection) is no evidence: a plain {@link GatewayException}, never "nothing there" nor a definite refusal. A
 * recorded transaction id is looked up by id. Against {@link FakeBraintree}, without Spring.
 */
class BraintreeEvidenceIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String BT_MERCHANT = "bt_payorch_evidence";
    private static final String PUBLIC_KEY = "pub_FakeBraintreeEvidenceKey11";
    private static final String PRIVATE_KEY = "priv_FakeBraintreeEvidenceKeyDoNotLog11";
    private static final FakeBraintree BRAINTREE = new FakeBraintree().acceptKeys(BT_MERCHANT, PUBLIC_KEY, PRIVATE_KEY);

    private final List<BraintreeConnector> started = new ArrayList<>();

    private BraintreeConnector connector(String privateKey) {
        Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(
                "payments.merchants.m.connectors.braintree.merchant-id", BT_MERCHANT,
                "payments.merchants.m.connectors.braintree.public-key", PUBLIC_KEY,
                "payments.merchants.m.connectors.braintree.private-key", privateKey,
                "payments.connectors.braintree.base-url", BRAINTREE.baseUrl(),
                "payments.connectors.braintree.threads", "2")));
        BraintreeConnector plugged = new BraintreeConnector(
                binder.bind("payments.connectors.braintree", Bindable.of(BraintreeSettings.class)).get(),
                binder.bind("payments", Bindable.of(BraintreeAccounts.class)).get());
        started.add(plugged);
        return plugged;
    }

    @AfterEach
    void stop() {
        BRAINTREE.acceptConnections();
        started.forEach(BraintreeConnector::destroy);
    }

    @AfterAll
    static void stopBraintree() {
        BRAINTREE.close();
    }

    private static ChargeRequest attempt(int number) {
        return new ChargeRequest("pay_" + UUID.randomUUID().toString().replace("-", ""), number, 400, "EUR",
                "fake-valid-nonce-evidence", "m", "braintree");
    }

    @Test
    void aLookUpAnswersNothingOnlyWhenTheSearchConfirmsNoSaleAndFindsARecordedIdById() {
        BraintreeConnector braintree = connector(PRIVATE_KEY);
        assertThat(braintree.gateway().find(attempt(1)).blockOptional(WAIT)).as("never sent").isEmpty();

        ChargeRequest second = attempt(2);
        GatewayOutcome charged = braintree.gateway().submit(second).block(WAIT);
        assertThat(braintree.gateway().find(second).block(WAIT).reference()).isEqualTo(charged.reference());
        assertThat(braintree.gateway().find(second.withReference(charged.reference())).block(WAIT))
                .isEqualTo(charged);
    }

    @Test
    void aLookUpThatCouldNotAskIsNoEvidenceNeitherNothingThereNorARefusal() {
        assertThatThrownBy(() -> connector("priv_revoked").gateway().find(attempt(1)).block(WAIT))
                .as("refused keys").isExactlyInstanceOf(GatewayException.class);

        BraintreeConnector braintree = connector(PRIVATE_KEY);
        BRAINTREE.refuseConnections();
        assertThatThrownBy(() -> braintree.gateway().find(attempt(1)).block(WAIT))
                .as("no connection").isExactlyInstanceOf(GatewayException.class);
    }

    @Test
    void braintreeLooksUpBeforeAnyResendSoItNeedsNoKeyLifetimeAndWritesIsoDecimals() {
        BraintreeConnector braintree = connector(PRIVATE_KEY);

        assertThat(braintree.idempotencyKeyLifetime()).isEmpty();
        assertThat(braintree.currencyUnits().exponents()).isEmpty();
        assertThat(braintree.currencyUnits().source()).contains("Braintree");
        assertThat(BraintreeAmounts.decimal(12000, "JPY")).hasToString("12000");
        assertThat(BraintreeAmounts.decimal(1234, "EUR")).hasToString("12.34");
        assertThat(BraintreeAmounts.decimal(1234, "BHD")).hasToString("1.234");
        assertThat(BraintreeAmounts.minorUnits(new java.math.BigDecimal("12.34"), "EUR")).isEqualTo(1234);
    }
}
