package com.payorch.connectors.braintree;

import static org.assertj.core.api.Assertions.assertThat;

import com.braintreegateway.Transaction.Status;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import org.junit.jupiter.api.Test;

/** The status table of {@link BraintreeStatuses} (and of docs/connectors.md), row by row. */
class BraintreeStatusesTest {

    private static MappedStatus map(Status status) {
        return BraintreeStatuses.of(status, "2000", "Do Not Honor", "FRAUD", "4001", "Settlement Declined");
    }

    @Test
    void moneyOnItsWayToTheMerchantIsSucceeded() {
        for (Status status : new Status[] {Status.SUBMITTED_FOR_SETTLEMENT, Status.SETTLING, Status.SETTLED,
                Status.SETTLEMENT_CONFIRMED}) {
            assertThat(map(status)).as(status.name())
                    .isEqualTo(new MappedStatus(GatewayStatus.SUCCEEDED, null));
        }
    }

    @Test
    void undecidedStatusesAreProcessing() {
        for (Status status : new Status[] {Status.SETTLEMENT_PENDING, Status.AUTHORIZING, Status.AUTHORIZED,
                Status.UNRECOGNIZED}) {
            assertThat(map(status)).as(status.name())
                    .isEqualTo(new MappedStatus(GatewayStatus.PROCESSING, null));
        }
        assertThat(BraintreeStatuses.of(null, null, null, null, null, null).status())
                .isEqualTo(GatewayStatus.PROCESSING);
    }

    @Test
    void failuresCarryBraintreesReason() {
        assertThat(map(Status.PROCESSOR_DECLINED)).isEqualTo(new MappedStatus(GatewayStatus.FAILED,
                "processor_declined: 2000 Do Not Honor"));
        assertThat(map(Status.GATEWAY_REJECTED)).isEqualTo(new MappedStatus(GatewayStatus.FAILED,
                "gateway_rejected: fraud"));
        assertThat(map(Status.SETTLEMENT_DECLINED)).isEqualTo(new MappedStatus(GatewayStatus.FAILED,
                "settlement_declined: 4001 Settlement Declined"));
        assertThat(map(Status.FAILED)).isEqualTo(new MappedStatus(GatewayStatus.FAILED,
                "failed: 2000 Do Not Honor"));
        assertThat(map(Status.VOIDED)).isEqualTo(new MappedStatus(GatewayStatus.FAILED, "voided"));
        assertThat(map(Status.AUTHORIZATION_EXPIRED)).isEqualTo(new MappedStatus(GatewayStatus.FAILED,
                "authorization_expired"));
        assertThat(BraintreeStatuses.of(Status.PROCESSOR_DECLINED, null, null, null, null, null).failureReason())
                .isEqualTo("processor_declined");
    }

    @Test
    void aSaleThatNeeded3dSecureFailsAuthenticationRequiredForCustomerActionIsNotSupported() {
        MappedStatus required = new MappedStatus(GatewayStatus.FAILED, "authentication_required");

        assertThat(BraintreeStatuses.of(Status.GATEWAY_REJECTED, null, null, "THREE_D_SECURE", null, null))
                .isEqualTo(required);
        assertThat(BraintreeStatuses.of(Status.PROCESSOR_DECLINED, "2099", "Cardholder Authentication Required",
                null, null, null)).isEqualTo(required);
        assertThat(BraintreeStatuses.ofHold(Status.PROCESSOR_DECLINED, BraintreeStatuses.of(Status.PROCESSOR_DECLINED,
                "2099", "Cardholder Authentication Required", null, null, null))).isEqualTo(required);
        // Other codes and rejections keep Braintree's own reason.
        assertThat(BraintreeStatuses.of(Status.PROCESSOR_DECLINED, "2098", "Something Else", null, null, null))
                .isEqualTo(new MappedStatus(GatewayStatus.FAILED, "processor_declined: 2098 Something Else"));
        assertThat(BraintreeStatuses.of(Status.FAILED, "2099", "Cardholder Authentication Required", null, null,
                null)).isEqualTo(new MappedStatus(GatewayStatus.FAILED,
                "failed: 2099 Cardholder Authentication Required"));
    }

    @Test
    void aHoldIsAuthorizedUntilCapturedAndCancelledWhenVoidedOrLapsed() {
        MappedStatus automatic = new MappedStatus(GatewayStatus.PROCESSING, null);

        assertThat(BraintreeStatuses.ofHold(Status.AUTHORIZED, automatic))
                .isEqualTo(new MappedStatus(GatewayStatus.AUTHORIZED, null));
        assertThat(BraintreeStatuses.ofHold(Status.VOIDED, automatic))
                .isEqualTo(new MappedStatus(GatewayStatus.CANCELLED, "voided"));
        assertThat(BraintreeStatuses.ofHold(Status.AUTHORIZATION_EXPIRED, automatic))
                .isEqualTo(new MappedStatus(GatewayStatus.CANCELLED, "authorization_expired"));
        for (Status status : new Status[] {Status.SUBMITTED_FOR_SETTLEMENT, Status.SETTLED, Status.PROCESSOR_DECLINED,
                Status.SETTLEMENT_PENDING}) {
            assertThat(BraintreeStatuses.ofHold(status, map(status))).as(status.name()).isEqualTo(map(status));
        }
    }

    @Test
    void amountsAreDecimalsInTheCurrencysUnit() {
        assertThat(BraintreeAmounts.decimal(1000, "EUR")).isEqualByComparingTo("10.00");
        assertThat(BraintreeAmounts.decimal(1000, "JPY").toPlainString()).isEqualTo("1000");
        assertThat(BraintreeAmounts.decimal(1000, "BHD").toPlainString()).isEqualTo("1.000");
        assertThat(BraintreeAmounts.minorUnits(new java.math.BigDecimal("4.00"), "EUR")).isEqualTo(400);
        assertThat(BraintreeAmounts.minorUnits(new java.math.BigDecimal("4"), "EUR")).isEqualTo(400);
    }
}
