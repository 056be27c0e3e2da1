package com.payorch.connectors.stripe;

import com.payorch.fakes.FakeStripe;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Stripe's connector, outside Spring, against a {@link FakeStripe} on a random port: one merchant, the service's
 * clock movable (no sleeps), the webhook adapter of that merchant.
 */
final class StripeFixture implements AutoCloseable {

    static final String MERCHANT = "m_stripe";
    static final String SECRET = "sk_test_51FakeStripeFixtureKeyDoNotLog0022";
    static final String WEBHOOK_SECRET = "whsec_FakeStripeFixtureSecret0022";

    final FakeStripe stripe = new FakeStripe(0).acceptKey(SECRET);
    final MovableClock clock = new MovableClock(Instant.now());
    final StripeSettings settings = new StripeSettings();
    final StripeConnector connector;
    private final Scheduler scheduler = Schedulers.newBoundedElastic(4, 100, "stripe-fixture");
    final StripeGateway gateway;

    StripeFixture() {
        settings.setApiBase(java.net.URI.create(stripe.baseUrl()));
        StripeAccounts accounts = new StripeAccounts();
        StripeAccounts.Account account = new StripeAccounts.Account();
        account.setSecretKey(SECRET);
        account.setWebhookSecret(WEBHOOK_SECRET);
        StripeAccounts.Merchant merchant = new StripeAccounts.Merchant();
        merchant.getConnectors().setStripe(account);
        accounts.setMerchants(Map.of(MERCHANT, merchant));
        gateway = new StripeGateway(settings, accounts, scheduler, clock);
        connector = new StripeConnector(settings, accounts, clock);
    }

    static String unique(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    static ChargeRequest charge(String paymentId, int attempt, long amount, String currency, String method) {
        return new ChargeRequest(paymentId, attempt, amount, currency, method, MERCHANT, StripeGateway.NAME);
    }

    /** The event, signed by Stripe, parsed by the merchant's webhook adapter. */
    List<ConnectorNotification> receive(String event) {
        ConnectorWebhooks webhooks = connector.webhooksFor(MERCHANT);
        HttpHeaders headers = new HttpHeaders();
        headers.add("Stripe-Signature", FakeStripe.sign(event, WEBHOOK_SECRET, clock.instant().getEpochSecond()));
        byte[] body = event.getBytes(StandardCharsets.UTF_8);
        if (!webhooks.verify(headers, body)) {
            throw new AssertionError("the fixture's signature did not verify");
        }
        return webhooks.parse(headers, body);
    }

    @Override
    public void close() {
        connector.destroy();
        scheduler.dispose();
        stripe.close();
    }

    /** The service's clock, moved on by the test. */
    static final class MovableClock extends Clock {
        private volatile Instant now;

        MovableClock(Instant start) {
            this.now = start;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
