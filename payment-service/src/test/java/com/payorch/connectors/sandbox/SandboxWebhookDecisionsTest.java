package com.payorch.connectors.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.GatewayStatus;
import com.payorch.webhooks.WebhookInvalid;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpHeaders;

/**
 * What a sandbox webhook body means, without Spring or a database. (The steps an outcome implies for a payment are
 * {@code payments.OutcomeStepsTest}.)
 */
class SandboxWebhookDecisionsTest {

    private final SandboxWebhooks sandbox = new SandboxWebhooks(new SandboxGatewayProperties(WebhookMode.OFF,
            SandboxGatewayProperties.DEVELOPMENT_WEBHOOK_SECRET, Duration.ofMillis(500), null, false, false,
            new SandboxGatewayProperties.Delivery(5, Duration.ofMillis(500), Duration.ofSeconds(5),
                    Duration.ofSeconds(5), Duration.ofMinutes(1)), Duration.ofMillis(250), Duration.ofDays(30), null),
            Clock.systemUTC(), null); // parse reads the body alone; the charge look-up is SandboxExactBindingIT's


    @Test
    void aWellFormedBodyIsReadAsTheOutcomeOfTheChargeItNames() {
        assertThat(parse("""
                {"type": "payment.failed", "id": "evt_extra_members_are_tolerated",
                 "data": {"paymentId": "pay_1", "chargeId": "ch_1", "amount": 12000, "currency": "JPY",
                          "failureReason": "card_declined"}}"""))
                .isEqualTo(new ConnectorNotification("msg_1", "payment.failed", "pay_1", "ch_1", GatewayStatus.FAILED,
                        12000, "JPY", "card_declined"));
        assertThat(parse("""
                {"type": "payment.succeeded", "data": {"paymentId": "pay_1", "chargeId": "ch_2", "amount": 1,
                 "currency": "USD"}}"""))
                .isEqualTo(new ConnectorNotification("msg_1", "payment.succeeded", "pay_1", "ch_2",
                        GatewayStatus.SUCCEEDED, 1, "USD", null));
        assertThat(parse("""
                {"type": "payment.processing", "data": {"paymentId": "pay_1", "chargeId": "ch_2", "amount": 1,
                 "currency": "USD"}}""").status()).isEqualTo(GatewayStatus.PROCESSING);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            not JSON                | {"type":                                                                                                  | The webhook body is not valid JSON.
            not an object           | []                                                                                                        | The webhook body must be a JSON object.
            no type                 | {"data": {"paymentId": "p", "chargeId": "c", "amount": 1, "currency": "JPY"}}                            | Member 'type' is required.
            an unknown type         | {"type": "payment.refunded", "data": {"paymentId": "p", "chargeId": "c", "amount": 1, "currency": "JPY"}} | Unknown webhook type 'payment.refunded'.
            data not an object      | {"type": "payment.succeeded", "data": 5}                                                                  | Member 'data' must be an object.
            amount as a string      | {"type": "payment.succeeded", "data": {"paymentId": "p", "chargeId": "c", "amount": "1", "currency": "JPY"}} | Member 'data.amount' must be an integer.
            amount with a fraction  | {"type": "payment.succeeded", "data": {"paymentId": "p", "chargeId": "c", "amount": 1.5, "currency": "JPY"}} | Member 'data.amount' must be an integer.
            no paymentId            | {"type": "payment.succeeded", "data": {"chargeId": "c", "amount": 1, "currency": "JPY"}}                 | Member 'paymentId' is required.
            no chargeId             | {"type": "payment.succeeded", "data": {"paymentId": "p", "amount": 1, "currency": "JPY"}}                | Member 'chargeId' is required.
            an empty currency       | {"type": "payment.succeeded", "data": {"paymentId": "p", "chargeId": "c", "amount": 1, "currency": ""}}  | Member 'currency' must be a string of 1-255 characters.
            failureReason a number  | {"type": "payment.failed", "data": {"paymentId": "p", "chargeId": "c", "amount": 1, "currency": "JPY", "failureReason": 3}} | Member 'failureReason' must be a string of 1-255 characters.
            """)
    void aMalformedBodyIsWebhookInvalidWithAReason(String what, String body, String detail) {
        assertThatThrownBy(() -> parse(body)).as(what)
                .isInstanceOfSatisfying(WebhookInvalid.class, invalid -> assertThat(invalid.detail()).isEqualTo(detail));
    }

    @Test
    void aNotificationIsBoundToTheAttemptOfTheChargeTheSandboxHoldsUnderItsId() {
        ConnectorNotification read = new ConnectorNotification("msg_1", "payment.succeeded", "pay_1", "ch_2",
                GatewayStatus.SUCCEEDED, 12000, "JPY", null);
        SandboxCharge held = new SandboxCharge("ch_2", "pay_1", 3, 12000, "JPY", "succeeded", null, "automatic", 0, null);

        assertThat(SandboxWebhooks.boundToItsCharge(read, java.util.Optional.of(held)).attempt()).isEqualTo(3);
        assertThat(SandboxWebhooks.boundToItsCharge(read, java.util.Optional.empty()).attempt())
                .as("a charge the sandbox never made").isZero();
        assertThat(SandboxWebhooks.boundToItsCharge(read, java.util.Optional.of(
                        new SandboxCharge("ch_2", "pay_other", 1, 12000, "JPY", "succeeded", null, "automatic", 0, null))).attempt())
                .as("a charge made for another payment").isZero();
    }

    private ConnectorNotification parse(String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("webhook-id", "msg_1");
        return sandbox.parse(headers, body.getBytes(StandardCharsets.UTF_8)).get(0);
    }
}
