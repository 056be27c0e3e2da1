package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorCapability;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.CurrencyUnits;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.WebhookAcknowledgement;
import com.payorch.gateway.WebhookEndpointDescription;
import com.payorch.testsupport.ApiTest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import reactor.core.publisher.Mono;

/**
 * Contract v3, "amounts in each connector's units": an amount the payment's first connector cannot express exactly,
 * or that exceeds its maximum, is refused at create (400 {@code invalid_request} naming the amount and the connector,
 * nothing sent, no row, the key usable again); a failover target that cannot express the amount is skipped.
 * Two test connectors stand in for the PSPs' tables: {@code coarse} writes CVE without decimals and CLP with two
 * (as Adyen does) and takes at most 6 digits; {@code unreachable} never takes a charge (a definite "not charged").
 */
@Import(AmountsInConnectorUnitsIT.TestConnectors.class)
@TestPropertySource(properties = {
        "payments.merchants.coarse.api-key=sk_test_coarse",
        "payments.merchants.coarse.routing=coarse,sandbox",
        "payments.merchants.skips.api-key=sk_test_skips",
        "payments.merchants.skips.routing=unreachable,coarse,sandbox",
        "spring.r2dbc.properties.schema=units_tests",
        "spring.flyway.schemas=units_tests",
        "spring.flyway.default-schema=units_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class AmountsInConnectorUnitsIT extends ApiTest {

    private static final String COARSE_KEY = "sk_test_coarse";
    private static final List<ChargeRequest> COARSE_SUBMITS = new CopyOnWriteArrayList<>();

    private String body(String booking, long amount, String currency) {
        return """
                {"bookingId": "%s", "amount": %d, "currency": "%s", "paymentMethod": "pm_card_visa"}"""
                .formatted(booking, amount, currency);
    }

    @Test
    void anAmountTheFirstConnectorCannotWriteExactlyIsRefusedAtCreateAndTheKeyStaysUsable() {
        String key = unique("key");
        String booking = unique("bk");
        int submitsBefore = COARSE_SUBMITS.size();

        postPayment(COARSE_KEY, key, body(booking, 12345, "CVE")).exchange()
                .expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.code").isEqualTo("invalid_request")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail)
                        .contains("12345", "CVE", "coarse"));

        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isZero();
        assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", key)).isZero();
        assertThat(COARSE_SUBMITS).hasSize(submitsBefore);

        // The same key with an amount the connector can write: a new payment, sent in the connector's units.
        postPayment(COARSE_KEY, key, body(booking, 12300, "CVE")).exchange().expectStatus().isCreated();
        assertThat(COARSE_SUBMITS).hasSize(submitsBefore + 1);
        assertThat(COARSE_SUBMITS.get(submitsBefore).amount()).as("the API's amount, in ISO minor units")
                .isEqualTo(12300);
    }

    @Test
    void anAmountAboveTheFirstConnectorsMaximumIsRefusedAtCreate() {
        String booking = unique("bk");
        // CLP 50000 is 5000000 in the coarse connector's units: seven digits, one more than it takes.
        postPayment(COARSE_KEY, unique("key"), body(booking, 50000, "CLP")).exchange()
                .expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.code").isEqualTo("invalid_request")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("50000", "CLP", "coarse"));
        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isZero();

        postPayment(COARSE_KEY, unique("key"), body(booking, 5000, "CLP")).exchange().expectStatus().isCreated();
    }

    @Test
    void aFailoverTargetThatCannotWriteTheAmountIsSkipped() {
        int submitsBefore = COARSE_SUBMITS.size();
        String booking = unique("bk");

        postPayment("sk_test_skips", unique("key"), body(booking, 12345, "CVE")).exchange()
                .expectStatus().isCreated()
                .expectBody()
                .jsonPath("$.connector").isEqualTo("sandbox");

        assertThat(COARSE_SUBMITS).as("the coarse connector was never asked").hasSize(submitsBefore);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class TestConnectors {

        @Bean
        Connector coarseConnector() {
            CurrencyUnits units = new CurrencyUnits(Map.of("CVE", 0, "CLP", 2), 6, "a test table");
            return new TestConnector("coarse", units, request -> {
                COARSE_SUBMITS.add(request);
                return Mono.just(new GatewayOutcome(request.paymentId(), request.attempt(), "coarse",
                        "co_" + request.idempotencyKey(), GatewayStatus.PROCESSING, null));
            });
        }

        @Bean
        Connector unreachableConnector() {
            return new TestConnector("unreachable", CurrencyUnits.ISO, request -> Mono.error(
                    new GatewayUnavailableException("unreachable never takes a charge")));
        }
    }

    private record TestConnector(String name, CurrencyUnits currencyUnits,
                                 java.util.function.Function<ChargeRequest, Mono<GatewayOutcome>> submits)
            implements Connector {

        @Override
        public PaymentGateway gateway() {
            return new PaymentGateway() {
                @Override
                public String name() {
                    return TestConnector.this.name;
                }

                @Override
                public Mono<GatewayOutcome> submit(ChargeRequest request) {
                    return submits.apply(request);
                }

                @Override
                public Mono<GatewayOutcome> find(ChargeRequest request) {
                    return Mono.empty();
                }
            };
        }

        @Override
        public ConnectorWebhooks webhooksFor(@Nullable String merchantId) {
            throw new IllegalStateException("the test connector " + name + " takes no webhooks");
        }

        @Override
        public WebhookEndpointDescription webhookEndpoint() {
            return new WebhookEndpointDescription("receive" + name + "Webhook", "test connector " + name,
                    "none", List.of(), null, "none", null);
        }

        @Override
        public WebhookAcknowledgement acknowledgement() {
            return WebhookAcknowledgement.STATUS_JSON;
        }

        @Override
        public Set<ConnectorCapability> capabilities() {
            return Set.of();
        }
    }
}
