package com.payorch.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.web.ApiProblem;
import com.payorch.web.ProblemCode;
import com.payorch.web.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a gateway webhook means, without Spring or a database: its body, and the steps it implies for a payment. */
class WebhookDecisionsTest {

    /** Every (type, status) pair; no steps means the webhook is ignored (late, out of order, after a terminal state). */
    @ParameterizedTest(name = "{0} on {1} → [{2}]")
    @CsvSource(delimiter = '|', textBlock = """
            payment.processing | PENDING    | SUBMIT
            payment.processing | PROCESSING |
            payment.processing | COMPLETED  |
            payment.processing | FAILED     |
            payment.succeeded  | PENDING    | SUBMIT SUCCEED
            payment.succeeded  | PROCESSING | SUCCEED
            payment.succeeded  | COMPLETED  |
            payment.succeeded  | FAILED     |
            payment.failed     | PENDING    | FAIL
            payment.failed     | PROCESSING | FAIL
            payment.failed     | COMPLETED  |
            payment.failed     | FAILED     |
            payment.refunded   | PROCESSING |
            """)
    void stepsForEachTypeAndStatus(String type, PaymentStatus status, String steps) {
        List<PaymentEvent> expected = steps == null ? List.of()
                : Arrays.stream(steps.split(" ")).map(PaymentEvent::valueOf).toList();

        assertThat(WebhookApplier.stepsFor(type, status)).isEqualTo(expected);
    }

    @Test
    void aWellFormedBodyIsRead() {
        assertThat(GatewayWebhook.from(json("""
                {"type": "payment.failed", "id": "evt_extra_members_are_tolerated",
                 "data": {"paymentId": "pay_1", "amount": 12000, "currency": "JPY", "failureReason": "card_declined"}}""")))
                .isEqualTo(new GatewayWebhook("payment.failed", "pay_1", 12000, "JPY", "card_declined"));
        assertThat(GatewayWebhook.from(json("""
                {"type": "payment.succeeded", "data": {"paymentId": "pay_1", "amount": 1, "currency": "USD"}}""")))
                .isEqualTo(new GatewayWebhook("payment.succeeded", "pay_1", 1, "USD", null));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            not an object           | []                                                                                          | The webhook body must be a JSON object.
            no type                 | {"data": {"paymentId": "p", "amount": 1, "currency": "JPY"}}                              | Member 'type' is required.
            an unknown type         | {"type": "payment.refunded", "data": {"paymentId": "p", "amount": 1, "currency": "JPY"}}  | Unknown webhook type 'payment.refunded'.
            data not an object      | {"type": "payment.succeeded", "data": 5}                                                   | Member 'data' must be an object.
            amount as a string      | {"type": "payment.succeeded", "data": {"paymentId": "p", "amount": "1", "currency": "JPY"}} | Member 'data.amount' must be an integer.
            amount with a fraction  | {"type": "payment.succeeded", "data": {"paymentId": "p", "amount": 1.5, "currency": "JPY"}} | Member 'data.amount' must be an integer.
            no paymentId            | {"type": "payment.succeeded", "data": {"amount": 1, "currency": "JPY"}}                    | Member 'paymentId' is required.
            an empty currency       | {"type": "payment.succeeded", "data": {"paymentId": "p", "amount": 1, "currency": ""}}     | Member 'currency' must be a string of 1-255 characters.
            failureReason a number  | {"type": "payment.failed", "data": {"paymentId": "p", "amount": 1, "currency": "JPY", "failureReason": 3}} | Member 'failureReason' must be a string of 1-255 characters.
            """)
    void aMalformedBodyIsWebhookInvalidWithAReason(String what, String body, String detail) {
        assertThatThrownBy(() -> GatewayWebhook.from(json(body))).as(what)
                .isInstanceOfSatisfying(ApiProblem.class, problem -> {
                    assertThat(problem.problemCode()).isEqualTo(ProblemCode.WEBHOOK_INVALID);
                    assertThat(problem.detail()).isEqualTo(detail);
                });
    }

    private static tools.jackson.databind.JsonNode json(String body) {
        return new StrictJson().parse(body.getBytes(StandardCharsets.UTF_8));
    }
}
