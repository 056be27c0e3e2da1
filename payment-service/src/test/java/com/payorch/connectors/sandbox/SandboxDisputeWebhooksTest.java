package com.payorch.connectors.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.DisputeNotice;
import com.payorch.webhooks.WebhookInvalid;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpHeaders;

/** The sandbox's dispute webhooks: what it sends about a `pm_card_disputed` charge, and how it reads them back. */
class SandboxDisputeWebhooksTest {

    private static final Instant OPENED = Instant.parse("2026-12-05T10:00:00Z");
    private static final SandboxCharge SUCCEEDED = new SandboxCharge("ch_1", "pay_1", 2, 12000, "EUR", "succeeded",
            null, "automatic", 0, null);

    private final SandboxWebhooks sandbox = new SandboxWebhooks(new SandboxGatewayProperties(WebhookMode.OFF,
            SandboxGatewayProperties.DEVELOPMENT_WEBHOOK_SECRET, Duration.ofMillis(500), null, false, false,
            new SandboxGatewayProperties.Delivery(5, Duration.ofMillis(500), Duration.ofSeconds(5),
                    Duration.ofSeconds(5), Duration.ofMinutes(1)), Duration.ofMillis(250), Duration.ofDays(30), null),
            Clock.systemUTC(), null);

    @Test
    void aDisputedChargesSuccessIsFollowedByItsDisputeOpenedThenLost() {
        var webhooks = SandboxWebhook.disputesOf(SUCCEEDED, "pm_card_disputed", OPENED);

        assertThat(webhooks).extracting(SandboxWebhook::type).containsExactly("dispute.opened", "dispute.lost");
        assertThat(webhooks).extracting(SandboxWebhook::id)
                .containsExactly("msg_ch_1_dispute_opened", "msg_ch_1_dispute_lost");
        ConnectorNotification opened = read(webhooks.get(0));
        assertThat(opened.isAboutADispute()).isTrue();
        assertThat(opened.reference()).isEqualTo("ch_1");
        assertThat(opened.paymentId()).isEqualTo("pay_1");
        assertThat(opened.dispute()).isEqualTo(new DisputeNotice("ch_1-dispute", DisputeNotice.Kind.OPENED, 12000,
                "EUR", "fraudulent", OPENED.plus(Duration.ofDays(7)), OPENED));
        assertThat(read(webhooks.get(1)).dispute().kind()).isEqualTo(DisputeNotice.Kind.LOST);
    }

    @Test
    void noOtherChargeIsDisputed() {
        assertThat(SandboxWebhook.disputesOf(SUCCEEDED, "pm_card_ok", OPENED)).isEmpty();
        assertThat(SandboxWebhook.disputesOf(new SandboxCharge("ch_1", "pay_1", 1, 12000, "EUR", "failed",
                "card_declined", "automatic", 0, null), "pm_card_disputed", OPENED)).isEmpty();
    }

    @Test
    void aDisputeIsBoundToTheAttemptOfItsChargeAndKeepsItsReport() {
        ConnectorNotification read = parse("""
                {"type": "dispute.won", "data": {"chargeId": "ch_1", "disputeId": "dp_1", "amount": 500,
                 "currency": "EUR"}}""");

        ConnectorNotification bound = SandboxWebhooks.boundToItsCharge(read, Optional.of(SUCCEEDED));

        assertThat(bound.paymentId()).as("the sandbox knows whose charge it is").isEqualTo("pay_1");
        assertThat(bound.attempt()).isEqualTo(2);
        assertThat(bound.dispute()).isEqualTo(read.dispute());
        assertThat(read.dispute().occurredAt()).as("the signed timestamp, when the body names no time")
                .isEqualTo(Instant.ofEpochSecond(1_700_000_000));
        assertThat(SandboxWebhooks.boundToItsCharge(read, Optional.empty()).attempt()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no disputeId       | {"type": "dispute.opened", "data": {"chargeId": "c", "amount": 1, "currency": "EUR"}} | Member 'disputeId' is required.
            no amount          | {"type": "dispute.opened", "data": {"chargeId": "c", "disputeId": "d", "currency": "EUR"}} | Member 'data.amount' must be an integer.
            no chargeId        | {"type": "dispute.lost", "data": {"disputeId": "d", "amount": 1, "currency": "EUR"}} | Member 'chargeId' is required.
            a zero amount      | {"type": "dispute.lost", "data": {"chargeId": "c", "disputeId": "d", "amount": 0, "currency": "EUR"}} | Member 'data.amount' of a dispute must be positive.
            a bad evidence due | {"type": "dispute.opened", "data": {"chargeId": "c", "disputeId": "d", "amount": 1, "currency": "EUR", "evidenceDueBy": "soon"}} | Member 'evidenceDueBy' must be an RFC 3339 timestamp.
            """)
    void aMalformedDisputeIsWebhookInvalid(String what, String body, String detail) {
        assertThatThrownBy(() -> parse(body)).as(what)
                .isInstanceOfSatisfying(WebhookInvalid.class, invalid -> assertThat(invalid.detail()).isEqualTo(detail));
    }

    private ConnectorNotification read(SandboxWebhook webhook) {
        return parse(new String(webhook.body(), StandardCharsets.UTF_8));
    }

    private ConnectorNotification parse(String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("webhook-id", "msg_1");
        headers.set("webhook-timestamp", "1700000000");
        return sandbox.parse(headers, body.getBytes(StandardCharsets.UTF_8)).get(0);
    }
}
