package com.payorch.connectors;

import com.payorch.connectors.adyen.AdyenGateway;
import com.payorch.connectors.adyen.AdyenStatuses;
import com.payorch.connectors.stripe.StripeGateway;
import com.payorch.connectors.stripe.StripeStatuses;
import com.payorch.gateway.MappedStatus;
import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.GatewayUnavailableException;
import com.stripe.exception.ApiException;
import com.stripe.exception.AuthenticationException;
import com.stripe.exception.IdempotencyException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.PermissionException;
import com.stripe.exception.RateLimitException;
import com.stripe.exception.StripeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every status and error the contract names for each connector, one row each: what the connector answers, and what
 * the service makes of it (an outcome with its failure reason, or which kind of failure: definite "not charged" that
 * may fail over, or ambiguous that must stay on the connector).
 */
class ConnectorAnswerTableTest {

    private static final ChargeRequest REQUEST =
            new ChargeRequest("pay_1", 1, 12000, "JPY", "pm_card_visa", "m", "stripe");

    @ParameterizedTest(name = "Stripe {0} (code {1}, decline {2}) -> {3} {4}")
    @CsvSource(nullValues = "-", value = {
            "succeeded,               -,                   -,                  SUCCEEDED,  -",
            "processing,              -,                   -,                  PROCESSING, -",
            "requires_capture,        -,                   -,                  PROCESSING, -",
            "requires_confirmation,   -,                   -,                  PROCESSING, -",
            "requires_payment_method, card_declined,       generic_decline,    FAILED,     generic_decline",
            "requires_payment_method, card_declined,       insufficient_funds, FAILED,     insufficient_funds",
            "requires_payment_method, expired_card,        -,                  FAILED,     expired_card",
            "requires_payment_method, -,                   -,                  FAILED,     payment_failed",
            "requires_action,         -,                   -,                  FAILED,     authentication_required",
            "canceled,                -,                   -,                  CANCELLED,  -"})
    void stripeStatuses(String status, String code, String declineCode, GatewayStatus expected, String reason) {
        assertThat(StripeStatuses.charge(status, code, declineCode))
                .isEqualTo(new MappedStatus(expected, reason));
    }

    @ParameterizedTest(name = "Stripe HTTP {0} {1} -> {2}")
    @CsvSource({
            "401, authentication,  REFUSED",
            "403, permission,      REFUSED",
            "400, invalid_request, REFUSED",
            "404, invalid_request, REFUSED",
            "400, idempotency,     AMBIGUOUS",
            "409, invalid_request, AMBIGUOUS",
            "429, rate_limit,      AMBIGUOUS",
            "500, api,             AMBIGUOUS",
            "503, api,             AMBIGUOUS"})
    void stripeFailures(int status, String kind, String expected) {
        StripeException e = switch (kind) {
            case "authentication" -> new AuthenticationException("no", "req_1", null, status);
            case "permission" -> new PermissionException("no", "req_1", null, status);
            case "invalid_request" -> new InvalidRequestException("bad", "param", "req_1", "code", status, null);
            case "idempotency" -> new IdempotencyException("conflict", "req_1", null, status);
            case "rate_limit" -> new RateLimitException("slow down", "param", "req_1", "rate_limit", status, null);
            default -> new ApiException("boom", "req_1", null, status, null);
        };
        assertKind(StripeGateway.translate(REQUEST, "submit", e), expected);
    }

    @ParameterizedTest(name = "Adyen {0} ({1}) -> {2} {3}")
    @CsvSource(nullValues = "-", value = {
            "Authorised,       -,                  SUCCEEDED,  -",
            "Refused,          Not enough balance, FAILED,     Not enough balance",
            "Refused,          -,                  FAILED,     Refused",
            "Cancelled,        -,                  FAILED,     cancelled",
            "RedirectShopper,  -,                  FAILED,     authentication_required",
            "IdentifyShopper,  -,                  FAILED,     authentication_required",
            "ChallengeShopper, -,                  FAILED,     authentication_required",
            "Received,         -,                  PROCESSING, -",
            "Pending,          -,                  PROCESSING, -"})
    void adyenResultCodes(String resultCode, String refusalReason, GatewayStatus expected, String reason) {
        assertThat(AdyenStatuses.charge(resultCode, refusalReason)).isEqualTo(new MappedStatus(expected, reason));
    }

    @ParameterizedTest(name = "Adyen HTTP {0} errorCode {1} -> {2}")
    @CsvSource(nullValues = "-", value = {
            "400, 702, REFUSED",
            "401, 000, REFUSED",
            "403, 010, REFUSED",
            "422, 14_030, REFUSED",
            "422, 704, AMBIGUOUS",
            "429, -,   AMBIGUOUS",
            "500, 905, AMBIGUOUS",
            "503, -,   AMBIGUOUS"})
    void adyenFailures(int status, String errorCode, String expected) {
        com.adyen.service.exception.ApiException e = new com.adyen.service.exception.ApiException("failed", status);
        if (errorCode != null) {
            e.setResponseBody("{\"status\": " + status + ", \"errorCode\": \"" + errorCode
                    + "\", \"message\": \"m\", \"errorType\": \"validation\"}");
        }
        assertKind(AdyenGateway.translate(REQUEST, e), expected);
    }

    @ParameterizedTest(name = "Adyen resultCode Error -> ambiguous")
    @CsvSource("Error")
    void adyenErrorResultIsAmbiguous(String resultCode) {
        com.adyen.model.checkout.PaymentResponse error = new com.adyen.model.checkout.PaymentResponse()
                .resultCode(com.adyen.model.checkout.PaymentResponse.ResultCodeEnum.fromValue(resultCode))
                .pspReference("8816118280275544");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AdyenGateway.outcome(REQUEST, error))
                .isExactlyInstanceOf(GatewayException.class);
    }

    private static void assertKind(GatewayException e, String expected) {
        switch (expected) {
            case "REFUSED" -> assertThat(e).isInstanceOf(ConnectorRefusedException.class);
            case "UNAVAILABLE" -> assertThat(e).isInstanceOf(GatewayUnavailableException.class);
            default -> assertThat(e).isExactlyInstanceOf(GatewayException.class);
        }
    }
}
