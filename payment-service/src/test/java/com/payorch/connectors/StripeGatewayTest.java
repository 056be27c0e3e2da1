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
import com.stripe.exception.ApiConnectionException;
import com.stripe.exception.ApiException;
import com.stripe.exception.AuthenticationException;
import com.stripe.exception.IdempotencyException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.PermissionException;
import com.stripe.exception.RateLimitException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

/** Stripe's and Adyen's statuses and failures in the port's words: which may fail over, which are ambiguous. */
class StripeGatewayTest {

    private static final ChargeRequest REQUEST = new ChargeRequest("pay_1", 1, 12000, "JPY", "pm_card_visa", "m", "stripe");

    @Test
    void statusesMapAsTheContractSays() {
        assertThat(StripeStatuses.charge("succeeded", null, null).status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(StripeStatuses.charge("processing", null, null).status()).isEqualTo(GatewayStatus.PROCESSING);
        assertThat(StripeStatuses.charge("requires_payment_method", "card_declined", "insufficient_funds"))
                .isEqualTo(new MappedStatus(GatewayStatus.FAILED, "insufficient_funds"));
        assertThat(StripeStatuses.charge("requires_payment_method", "expired_card", null))
                .isEqualTo(new MappedStatus(GatewayStatus.FAILED, "expired_card"));
        assertThat(StripeStatuses.charge("requires_action", null, null))
                .isEqualTo(new MappedStatus(GatewayStatus.FAILED, "authentication_required"));
    }

    @Test
    void onlyARequestThatNeverLeftIsUnavailable() {
        assertThat(StripeGateway.translate(REQUEST, "submit", new ApiConnectionException("x", new ConnectException())))
                .isExactlyInstanceOf(GatewayUnavailableException.class);
        assertThat(StripeGateway.translate(REQUEST, "submit", new ApiConnectionException("x",
                new UnknownHostException("api.stripe.com")))).isExactlyInstanceOf(GatewayUnavailableException.class);
        assertThat(StripeGateway.translate(REQUEST, "submit", new ApiConnectionException("x",
                new SocketTimeoutException("Read timed out")))).isExactlyInstanceOf(GatewayException.class);
        // java.net.http reports a refused connection as a ConnectException caused by a ClosedChannelException.
        ConnectException refused = new ConnectException();
        refused.initCause(new java.nio.channels.ClosedChannelException());
        assertThat(StripeGateway.translate(REQUEST, "submit", new ApiConnectionException("x", refused)))
                .isExactlyInstanceOf(GatewayUnavailableException.class);
        assertThat(StripeGateway.translate(REQUEST, "submit", new ApiConnectionException("x",
                new java.io.IOException("Connection reset")))).isExactlyInstanceOf(GatewayException.class);
    }

    @Test
    void adyenResultCodesAndFailuresMapAsTheContractSays() {
        assertThat(AdyenStatuses.charge("Authorised", null).status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(AdyenStatuses.charge("Refused", "Not enough balance"))
                .isEqualTo(new MappedStatus(GatewayStatus.FAILED, "Not enough balance"));
        assertThat(AdyenStatuses.charge("Received", null).status()).isEqualTo(GatewayStatus.PROCESSING);
        assertThat(AdyenStatuses.charge("Pending", null).status()).isEqualTo(GatewayStatus.PROCESSING);
        assertThat(AdyenStatuses.charge("RedirectShopper", null))
                .isEqualTo(new MappedStatus(GatewayStatus.FAILED, "authentication_required"));
        com.adyen.model.checkout.PaymentResponse error = new com.adyen.model.checkout.PaymentResponse()
                .resultCode(com.adyen.model.checkout.PaymentResponse.ResultCodeEnum.ERROR).pspReference("881");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AdyenGateway.outcome(REQUEST, error))
                .isExactlyInstanceOf(GatewayException.class);

        assertThat(AdyenGateway.translate(REQUEST, new java.io.IOException("refused", new ConnectException())))
                .isExactlyInstanceOf(GatewayUnavailableException.class);
        assertThat(AdyenGateway.translate(REQUEST, new com.adyen.service.exception.ApiException("no", 401)))
                .isInstanceOf(ConnectorRefusedException.class);
        assertThat(AdyenGateway.translate(REQUEST, new com.adyen.service.exception.ApiException("bad", 422)))
                .isInstanceOf(ConnectorRefusedException.class);
        // 422 errorCode 704: "request already processed or in progress" for the same Idempotency-Key: not a refusal.
        com.adyen.service.exception.ApiException inProgress =
                new com.adyen.service.exception.ApiException("in progress", 422);
        inProgress.setResponseBody("""
                {"status": 422, "errorCode": "704", "message": "request already processed or in progress",
                 "errorType": "validation"}""");
        assertThat(AdyenGateway.translate(REQUEST, inProgress)).isExactlyInstanceOf(GatewayException.class);
        assertThat(AdyenGateway.translate(REQUEST, new com.adyen.service.exception.ApiException("boom", 500)))
                .isExactlyInstanceOf(GatewayException.class);
        assertThat(AdyenGateway.translate(REQUEST, new java.net.SocketTimeoutException("Read timed out")))
                .isExactlyInstanceOf(GatewayException.class);
    }

    @Test
    void authenticationAndConfigurationRefusalsAreDefiniteButIdempotencyConflictsAnd5xxAreNot() {
        assertThat(StripeGateway.translate(REQUEST, "submit",
                new AuthenticationException("bad key sk_test_x", "req", null, 401)))
                .isInstanceOf(ConnectorRefusedException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("sk_test_x"));
        assertThat(StripeGateway.translate(REQUEST, "submit", new PermissionException("no", "req", null, 403)))
                .isInstanceOf(ConnectorRefusedException.class);
        assertThat(StripeGateway.translate(REQUEST, "submit",
                new InvalidRequestException("bad", "currency", "req", "parameter_invalid", 400, null)))
                .isInstanceOf(ConnectorRefusedException.class);
        assertThat(StripeGateway.translate(REQUEST, "submit", new IdempotencyException("conflict", "req", null, 400)))
                .isExactlyInstanceOf(GatewayException.class);
        assertThat(StripeGateway.translate(REQUEST, "submit", new ApiException("boom", "req", null, 500, null)))
                .isExactlyInstanceOf(GatewayException.class);
        assertThat(StripeGateway.translate(REQUEST, "submit",
                new RateLimitException("slow", "param", "req", "rate_limit", 429, null)))
                .isExactlyInstanceOf(GatewayException.class);
    }
}
