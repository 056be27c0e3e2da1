package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorCapability;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.WebhookAcknowledgement;
import com.payorch.gateway.WebhookEndpointDescription;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import reactor.core.publisher.Mono;

/**
 * Issue 22, finding 3 (payment side): a same-key resubmission is made only while the connector honours the key.
 * Before: a PROCESSING payment with nothing found was resubmitted with the same key roughly hourly, forever (past a
 * connector's key lifetime that is a new charge), and a PENDING one every {@code pending-after}.
 */
@TestPropertySource(properties = {
        "payments.merchants.demo.routing=" + KeyLifetimeIT.CONNECTOR,
        "payments.recovery.pending-after=PT0.2S",
        "payments.recovery.processing-after=PT0.2S",
        "payments.recovery.reconcile-backoff-max=PT0.2S",
        "payments.recovery.give-up-after=PT1H",
        "payments.recovery.interval=PT0.2S"})
@OwnSchema("key_lifetime_tests")
@Import(KeyLifetimeIT.ForgetfulConnectorConfiguration.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class KeyLifetimeIT extends ApiTest {

    static final String CONNECTOR = "forgetful";
    static final Duration KEY_LIFETIME = Duration.ofSeconds(2);

    @Autowired
    ForgetfulConnector connector;

    @Test
    void aPendingPaymentIsNeverResubmittedPastTheConnectorsKeyLifetime() {
        String booking = unique("bk");
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking, ForgetfulConnector.ANSWER_LOST)).exchange()
                .expectStatus().is5xxServerError();
        String paymentId = queries.paymentOfBooking(booking);

        assertNoResubmissionPastTheLifetime(paymentId);
        assertThat(statusOf(paymentId)).isEqualTo("PENDING");
    }

    @Test
    void aProcessingPaymentWithNothingFoundIsNeverResubmittedPastTheConnectorsKeyLifetime() {
        String paymentId = createPayment(unique("bk"), ForgetfulConnector.PROCESSING);
        assertThat(statusOf(paymentId)).isEqualTo("PROCESSING");

        assertNoResubmissionPastTheLifetime(paymentId);
        assertThat(statusOf(paymentId)).isEqualTo("PROCESSING");
    }

    private void assertNoResubmissionPastTheLifetime(String paymentId) {
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> connector.submits(paymentId) >= 2);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> StuckPaymentRecovery.PAST_KEY_LIFETIME.equals(
                queries.text("select attention_reason from payment_attempts where payment_id = $1", paymentId)));
        int submits = connector.submits(paymentId);
        Awaitility.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> connector.submits(paymentId) == submits);
        assertThat(connector.lookUps(paymentId)).as("settled by look-ups past the lifetime").isGreaterThan(submits);
    }

    /** A connector that keeps idempotency keys for {@link #KEY_LIFETIME} and confirms it holds no charge. */
    static class ForgetfulConnector implements Connector, PaymentGateway {

        static final String ANSWER_LOST = "pm_answer_lost";
        static final String PROCESSING = "pm_processing";

        private final Map<String, AtomicInteger> submits = new ConcurrentHashMap<>();
        private final Map<String, AtomicInteger> lookUps = new ConcurrentHashMap<>();

        int submits(String paymentId) {
            return submits.getOrDefault(paymentId, new AtomicInteger()).get();
        }

        int lookUps(String paymentId) {
            return lookUps.getOrDefault(paymentId, new AtomicInteger()).get();
        }

        @Override
        public String name() {
            return CONNECTOR;
        }

        @Override
        public Mono<GatewayOutcome> submit(ChargeRequest request) {
            submits.computeIfAbsent(request.paymentId(), id -> new AtomicInteger()).incrementAndGet();
            if (ANSWER_LOST.equals(request.paymentMethod())) {
                return Mono.error(new GatewayException("the answer was lost"));
            }
            return Mono.just(new GatewayOutcome(request.paymentId(), request.attempt(), CONNECTOR,
                    "fg_" + request.paymentId(), GatewayStatus.PROCESSING, null));
        }

        @Override
        public Mono<GatewayOutcome> find(ChargeRequest request) {
            lookUps.computeIfAbsent(request.paymentId(), id -> new AtomicInteger()).incrementAndGet();
            return Mono.empty();
        }

        @Override
        public PaymentGateway gateway() {
            return this;
        }

        @Override
        public Optional<Duration> idempotencyKeyLifetime() {
            return Optional.of(KEY_LIFETIME);
        }

        @Override
        public ConnectorWebhooks webhooksFor(@Nullable String merchantId) {
            throw new UnsupportedOperationException("no webhooks");
        }

        @Override
        public WebhookEndpointDescription webhookEndpoint() {
            return new WebhookEndpointDescription("forgetfulWebhook", "none", "none", List.of(), null, "none", null);
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

    @TestConfiguration(proxyBeanMethods = false)
    static class ForgetfulConnectorConfiguration {

        @Bean
        ForgetfulConnector forgetfulConnector() {
            return new ForgetfulConnector();
        }
    }
}
