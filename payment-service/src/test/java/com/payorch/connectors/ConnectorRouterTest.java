package com.payorch.connectors;

import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorCapability;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.WebhookAcknowledgement;
import com.payorch.gateway.WebhookEndpointDescription;
import java.time.Duration;
import java.util.Set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.PaymentGateway;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** Routes per merchant and currency, and each call to the attempt's recorded connector. */
class ConnectorRouterTest {

    private static PaymentGateway named(String name) {
        return new PaymentGateway() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Mono<GatewayOutcome> submit(ChargeRequest request) {
                return Mono.just(new GatewayOutcome(request.paymentId(), request.attempt(), name, "ref_" + name,
                        GatewayStatus.PROCESSING, null));
            }

            @Override
            public Mono<GatewayOutcome> find(ChargeRequest request) {
                return Mono.empty();
            }
        };
    }

    private static RoutingProperties properties(String routing, String eurRouting) {
        RoutingProperties properties = new RoutingProperties();
        RoutingProperties.Merchant merchant = new RoutingProperties.Merchant();
        merchant.setRouting(List.of(routing.split(",")));
        if (eurRouting != null) {
            merchant.setRoutingByCurrency(Map.of("EUR", List.of(eurRouting.split(","))));
        }
        properties.setMerchants(Map.of("m", merchant));
        return properties;
    }

    private static Connector plugged(String name) {
        PaymentGateway gateway = named(name);
        return new Connector() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public PaymentGateway gateway() {
                return gateway;
            }

            @Override
            public ConnectorWebhooks webhooksFor(String merchantId) {
                throw new UnsupportedOperationException();
            }

            @Override
            public WebhookEndpointDescription webhookEndpoint() {
                throw new UnsupportedOperationException();
            }

            @Override
            public WebhookAcknowledgement acknowledgement() {
                return WebhookAcknowledgement.STATUS_JSON;
            }

            @Override
            public Set<ConnectorCapability> capabilities() {
                return Set.of();
            }
        };
    }

    private static final List<Connector> CONNECTORS = List.of(plugged("sandbox"), plugged("stripe"),
            plugged("adyen"));

    private static ConnectorRouter router(RoutingProperties properties) {
        return new ConnectorRouter(CONNECTORS, Duration.ofSeconds(10), properties);
    }

    @Test
    void theCurrencysRouteWinsAndUnknownMerchantsUseTheSandbox() {
        ConnectorRouter router = router(properties("Stripe, adyen", "adyen"));

        assertThat(router.route("m", "JPY")).containsExactly("stripe", "adyen");
        assertThat(router.route("m", "EUR")).containsExactly("adyen");
        assertThat(router.route("someone-else", "EUR")).containsExactly("sandbox");
    }

    @Test
    void eachCallGoesToTheAttemptsRecordedConnector() {
        ConnectorRouter router = router(properties("stripe,adyen", null));

        StepVerifier.create(router.submit(new ChargeRequest("pay_1", 1, 100, "JPY", "pm", "m", "adyen")))
                .assertNext(outcome -> assertThat(outcome.connector()).isEqualTo("adyen"))
                .verifyComplete();
        StepVerifier.create(router.submit(new ChargeRequest("pay_1", 1, 100, "JPY", "pm", "m", null)))
                .assertNext(outcome -> assertThat(outcome.connector()).isEqualTo("stripe"))
                .verifyComplete();
    }

    @Test
    void aRouteNamingAnUnknownConnectorIsRefusedAtStart() {
        assertThatThrownBy(() -> router(properties("stripe,paypal", null)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("payments.merchants.m.routing").hasMessageContaining("paypal");
        assertThatThrownBy(() -> router(properties("stripe", "wirecard")))
                .hasMessageContaining("routing-by-currency.EUR");
    }
}
