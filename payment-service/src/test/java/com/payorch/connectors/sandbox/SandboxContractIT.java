package com.payorch.connectors.sandbox;

import static org.awaitility.Awaitility.await;

import com.payorch.connectors.ConnectorContractTest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.Connector;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.SandboxFaults;
import com.payorch.testsupport.SandboxFaultsConfiguration;
import com.payorch.testsupport.SignedWebhooks;
import com.payorch.testsupport.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The connector contract for the sandbox, which is its own fake: its charges live in the service's database. It is
 * never refused and never fails before charging; a request that never left is played by `pm_card_unavailable`, an
 * answer lost after the charge by {@link SandboxFaults}.
 */
@Import(SandboxFaultsConfiguration.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.shutdown=immediate",
        "payments.allow-development-defaults=true",
        "payments.gateway.sandbox.webhooks=off",
        // Settled when the test asks (settle(), the capture counts), not after a delay.
        "payments.gateway.sandbox.webhook-delay=PT0S",
        "payments.gateway.sandbox.webhook-secret=" + ApiTest.WEBHOOK_SECRET})
class SandboxContractIT extends ConnectorContractTest {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
    }

    @Autowired
    List<Connector> connectors;

    @Autowired
    SandboxFaults faults;

    @Autowired
    DatabaseClient db;

    @Autowired
    SandboxSettlement settlement;

    @Override
    protected Connector connector() {
        return connectors.stream().filter(c -> c.name().equals("sandbox")).findFirst().orElseThrow();
    }

    @Override
    protected String merchantId() {
        return "demo";
    }

    @Override
    protected String chargeableToken() {
        return "pm_card_ok";
    }

    @Override
    protected long chargesAtTheFake(String paymentId) {
        return db.sql("select count(*) from sandbox_charges where payment_id = :id").bind("id", paymentId)
                .map(row -> row.get(0, Long.class)).one().block(Duration.ofSeconds(10));
    }

    @Override
    protected void settle(GatewayOutcome charge) {
        settlement.settleDueCharges().block(Duration.ofSeconds(10));
        awaitSettled(charge.paymentId());
    }

    @Override
    protected boolean holds() {
        return true;
    }

    @Override
    protected long capturesAtTheFake(String paymentId) {
        return column("select coalesce(sum(captures), 0) from sandbox_charges where payment_id = :id", paymentId);
    }

    /** What the sandbox's settlement took once the captures sent so far are settled. */
    @Override
    protected long capturedAtTheFake(String paymentId) {
        settlement.settleDueCaptures().block(Duration.ofSeconds(10));
        awaitSettled(paymentId);
        return column("select coalesce(sum(amount_captured), 0) from sandbox_charges where payment_id = :id",
                paymentId);
    }

    @Override
    protected long cancelsAtTheFake(String paymentId) {
        return column("select count(*) from sandbox_charges where payment_id = :id and status = 'cancelled'",
                paymentId);
    }

    /**
     * The application's own settlement job runs too (woken by the charge's notification) and may hold a row when the
     * test settles: `skip locked` passes over it, so the test waits for that job's commit instead.
     */
    private void awaitSettled(String paymentId) {
        await().atMost(Duration.ofSeconds(10)).until(() -> column("""
                select count(*) from sandbox_charges
                where payment_id = :id and status in ('processing', 'capturing')""",
                paymentId) == 0);
    }

    private long column(String sql, String paymentId) {
        return db.sql(sql).bind("id", paymentId).map(row -> ((Number) row.get(0)).longValue()).one()
                .block(Duration.ofSeconds(10));
    }

    @Override
    protected boolean armCaptureAnswerLost(String paymentId) {
        faults.loseNextCaptureResponse();
        return true;
    }

    @Override
    protected @Nullable ChargeRequest arm(Failure failure, ChargeRequest request) {
        return switch (failure) {
            case NOT_SENT -> new ChargeRequest(request.paymentId(), request.attempt(), request.amount(),
                    request.currency(), "pm_card_unavailable", request.merchantId(), request.connector());
            case AMBIGUOUS_AFTER_CHARGE -> {
                faults.loseNextResponse();
                yield request;
            }
            case REFUSED, AMBIGUOUS_BEFORE_CHARGE -> null;
        };
    }

    @Override
    protected RawWebhook succeeded(GatewayOutcome charge, long amount, String currency) {
        return webhook(charge, amount, currency, ApiTest.WEBHOOK_SECRET);
    }

    @Override
    protected RawWebhook forged(GatewayOutcome charge, long amount, String currency) {
        return webhook(charge, amount, currency, "whsec_c2VjcmV0LW9mLXNvbWVib2R5LWVsc2UtMDAwMDAw");
    }

    private static RawWebhook webhook(GatewayOutcome charge, long amount, String currency, String secret) {
        String body = """
                {"type": "payment.succeeded", "data": {"paymentId": "%s", "chargeId": "%s", "amount": %d,
                 "currency": "%s"}}""".formatted(charge.paymentId(), charge.reference(), amount, currency);
        return new RawWebhook(SignedWebhooks.sign(secret, "msg_" + UUID.randomUUID(), Instant.now(), body),
                body.getBytes(StandardCharsets.UTF_8));
    }
}
