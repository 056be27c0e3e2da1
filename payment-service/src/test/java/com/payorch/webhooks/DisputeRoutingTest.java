package com.payorch.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.disputes.DisputeReport;
import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.DisputeNotice;
import com.payorch.gateway.GatewayStatus;
import com.payorch.payments.Hold;
import com.payorch.payments.Payment;
import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** A dispute's report is routed to the payment's disputes, never applied as the charge's outcome. */
class DisputeRoutingTest {

    private static final Instant OPENED_AT = Instant.parse("2026-12-05T10:00:00Z");

    private static DisputeNotice notice(DisputeNotice.Kind kind, long amount, String currency) {
        return new DisputeNotice("ch_1-dispute", kind, amount, currency, "fraudulent",
                OPENED_AT.plusSeconds(7 * 86400), OPENED_AT);
    }

    @Test
    void aChargesOutcomeARefundsAndADisputesGoTheirOwnWays() {
        ConnectorNotification charge = new ConnectorNotification("wh_1", "payment.succeeded", "pay_1", "ch_1",
                GatewayStatus.SUCCEEDED, 10000, "EUR", null);
        ConnectorNotification refund = new ConnectorNotification("wh_2", "refund.succeeded", "pay_1", "ch_1",
                GatewayStatus.SUCCEEDED, 10000, "EUR", null, "re_1");
        ConnectorNotification dispute = ConnectorNotification.aboutDispute("wh_3", "dispute.opened", "pay_1", 1,
                "ch_1", notice(DisputeNotice.Kind.OPENED, 10000, "EUR"));

        assertThat(NotificationRoute.of(charge)).isEqualTo(NotificationRoute.CHARGE);
        assertThat(NotificationRoute.of(refund)).isEqualTo(NotificationRoute.REFUND);
        assertThat(NotificationRoute.of(dispute)).isEqualTo(NotificationRoute.DISPUTE);
    }

    @Test
    void aDisputeOfAChargeNeverMadeIsIgnoredAsAnyNotificationAboutIt() {
        ConnectorNotification dispute = ConnectorNotification.aboutDispute("wh_4", "dispute.opened", "pay_1",
                ConnectorWebhooks.CHARGE_NEVER_MADE, "ch_never", notice(DisputeNotice.Kind.OPENED, 10000, "EUR"));

        assertThat(NotificationRoute.of(dispute)).isEqualTo(NotificationRoute.CHARGE_NEVER_MADE);
    }

    @Test
    void theReportIsTheNotificationsBoundToItsAttemptAndItsIdIsTheReceipts() {
        ConnectorNotification notification = ConnectorNotification.aboutDispute("wh_5", "dispute.lost", "pay_1", null,
                "ch_1", notice(DisputeNotice.Kind.LOST, 4000, "EUR"));

        DisputeReport report = DisputeNotifications.report("sandbox", notification, "pay_1", 2);

        assertThat(report).isEqualTo(new DisputeReport("sandbox", "wh_5", "ch_1-dispute", "pay_1", 2,
                DisputeReport.Kind.LOST, 4000, "EUR", "fraudulent", OPENED_AT.plusSeconds(7 * 86400), OPENED_AT));
    }

    @ParameterizedTest
    @EnumSource(DisputeNotice.Kind.class)
    void everyKindHasItsReportKind(DisputeNotice.Kind kind) {
        assertThat(DisputeNotifications.kind(kind).name()).isEqualTo(kind.name());
    }

    @ParameterizedTest(name = "{0} {1} of a 10000 EUR payment -> {2}")
    @CsvSource({
            "10000, EUR, true",
            " 4000, EUR, true",
            "10001, EUR, false",
            "    0, EUR, false",
            "10000, USD, false"
    })
    void aDisputeHoldsSomeOrAllOfTheChargeInItsCurrency(long amount, String currency, boolean mayBe) {
        Payment payment = new Payment("pay_1", "demo", "bk_1", 10000, "EUR", "pm_card_ok", null, null,
                PaymentStatus.COMPLETED, null, 1, "sandbox", 1, Instant.EPOCH, Instant.EPOCH, Map.of(), 0,
                Hold.of(CaptureMethod.AUTOMATIC));

        assertThat(DisputeNotifications.amountMayBeDisputed(notice(DisputeNotice.Kind.OPENED, amount, currency),
                payment)).isEqualTo(mayBe);
    }
}
