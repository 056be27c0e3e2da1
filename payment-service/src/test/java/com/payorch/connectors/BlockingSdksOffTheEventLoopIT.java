package com.payorch.connectors;

import com.payorch.connectors.adyen.AdyenAccounts;
import com.payorch.connectors.adyen.AdyenGateway;
import com.payorch.connectors.adyen.AdyenSettings;
import com.payorch.connectors.stripe.StripeAccounts;
import com.payorch.connectors.stripe.StripeGateway;
import com.payorch.connectors.stripe.StripeSettings;
import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeAdyen;
import com.payorch.fakes.FakeStripe;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayStatus;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Both PSP SDKs block; the gateways run them on the connectors' bounded scheduler, never on the thread that
 * subscribed (in the service, a Netty event loop): while Stripe holds its answer, that thread stays free.
 */
class BlockingSdksOffTheEventLoopIT {

    private static final String STRIPE_KEY = "sk_test_51FakeLoopSecretKeyDoNotLog0009";
    private static final String ADYEN_KEY = "AQE_FakeLoopAdyenKeyDoNotLog_0009";

    private final FakeStripe stripe = new FakeStripe(2_000).acceptKey(STRIPE_KEY);
    private final FakeAdyen adyen = new FakeAdyen().acceptKey(ADYEN_KEY);
    private final Scheduler eventLoop = Schedulers.newSingle("event-loop-stand-in");
    private final Scheduler connectorIo = Schedulers.newBoundedElastic(2, 100, "connector-io-test");

    @AfterEach
    void stop() {
        stripe.close();
        adyen.close();
        eventLoop.dispose();
        connectorIo.dispose();
    }

    @Test
    void stripesBlockingCallRunsOnTheConnectorSchedulerAndLeavesTheSubscribingThreadFree() throws Exception {
        StripeGateway gateway = new StripeGateway(bind("payments.connectors.stripe", StripeSettings.class),
                bind("payments", StripeAccounts.class), connectorIo);
        stripe.failNext("pm_card_visa_loop", FakeStripe.Failure.TIMEOUT_AFTER_CHARGE); // answered 2 s late
        ChargeRequest request = new ChargeRequest("pay_loop", 1, 4200, "EUR", "pm_card_visa_loop", "m", "stripe");

        CompletableFuture<String> answeredOn = Mono.defer(() -> gateway.submit(request))
                .map(outcome -> outcome.status() + " on " + Thread.currentThread().getName())
                .subscribeOn(eventLoop).toFuture();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> stripe.chargesFor("pay_loop") == 1);

        String loopRan = Mono.fromCallable(() -> Thread.currentThread().getName()).subscribeOn(eventLoop).toFuture()
                .get(1, TimeUnit.SECONDS);
        assertThat(loopRan).as("the subscribing thread is free while Stripe holds its answer")
                .startsWith("event-loop-stand-in");
        assertThat(answeredOn).isNotDone();
        assertThat(answeredOn.get(20, TimeUnit.SECONDS))
                .matches(GatewayStatus.SUCCEEDED + " on connector-io-test-\\d+");
    }

    @Test
    void adyensBlockingCallRunsOnTheConnectorScheduler() throws Exception {
        AdyenGateway gateway = new AdyenGateway(bind("payments.connectors.adyen", AdyenSettings.class),
                bind("payments", AdyenAccounts.class), connectorIo);
        ChargeRequest request = new ChargeRequest("pay_loop2", 1, 4200, "EUR", "pm_stored_loop", "m", "adyen");

        String answeredOn = Mono.defer(() -> gateway.submit(request))
                .map(outcome -> outcome.status() + " on " + Thread.currentThread().getName())
                .subscribeOn(eventLoop).toFuture().get(20, TimeUnit.SECONDS);

        assertThat(answeredOn).matches(GatewayStatus.SUCCEEDED + " on connector-io-test-\\d+");
        assertThat(adyen.paymentsFor("pay_loop2")).hasSize(1);
    }

    private <T> T bind(String prefix, Class<T> type) {
        Map<String, String> settings = Map.of(
                "payments.merchants.m.connectors.stripe.secret-key", STRIPE_KEY,
                "payments.merchants.m.connectors.adyen.api-key", ADYEN_KEY,
                "payments.merchants.m.connectors.adyen.merchant-account", "PayorchLoopECOM",
                "payments.connectors.stripe.api-base", stripe.baseUrl(),
                "payments.connectors.stripe.read-timeout", "PT10S",
                "payments.connectors.adyen.checkout-url", adyen.checkoutUrl());
        return new Binder(new MapConfigurationPropertySource(settings))
                .bind(prefix, Bindable.of(type)).get();
    }
}
