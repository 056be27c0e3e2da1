package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeAdyen;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.DisputeNotice;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.WebhookSignatureFailures;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.http.HttpHeaders;

/**
 * What {@link AdyenWebhooks} makes of Adyen's notification items (issue 22: findings 2, 4, 5 and 6 on the Adyen
 * side): the attempt from `additionalData.metadata.attempt`, amounts back in ISO units, a confirmed cancel as
 * "nothing was taken" (`gateway_unreachable`), holds (contract v3: a manual authorisation, captures, capture failures,
 * cancellations, expiry), reversals and refund failures as refund outcomes, two HMAC keys during a rotation.
 */
class AdyenWebhooksTest {

    private static final String ACCOUNT = "PayorchUnitECOM";
    private static final String NEW_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    private static final String OLD_KEY = "00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF";
    private static final String FOREIGN_KEY = "FFEEDDCCBBAA99887766554433221100FFEEDDCCBBAA99887766554433221100";

    private final List<String> failures = new ArrayList<>();
    private final WebhookSignatureFailures recorded = (connector, merchant, detail) ->
            failures.add(connector + "/" + merchant + ": " + detail);

    private List<ConnectorNotification> parse(String hmacKeys, List<Map<String, Object>> items) {
        Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(
                "payments.merchants.m.connectors.adyen.merchant-account", ACCOUNT,
                "payments.merchants.m.connectors.adyen.hmac-key", hmacKeys)));
        AdyenWebhooks webhooks = new AdyenWebhooks(binder.bind("payments", Bindable.of(AdyenAccounts.class)).get(),
                recorded);
        String batch = FakeAdyen.notification(ACCOUNT, NEW_KEY, items);
        return webhooks.forMerchant("m").parse(new HttpHeaders(), batch.getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, Object> item(String eventCode, String psp, String merchantReference, boolean success,
                                            long value, String currency) {
        Map<String, Object> item = new HashMap<>(Map.of("eventCode", eventCode, "pspReference", psp,
                "merchantReference", merchantReference, "success", success, "value", value, "currency", currency));
        item.put("reason", "");
        return item;
    }

    private static Map<String, Object> with(Map<String, Object> item, String key, Object value) {
        item.put(key, value);
        return item;
    }

    @Test
    void anAuthorisationNamesTheAttemptAndThePaymentFromItsMetadata() {
        Map<String, Object> authorised = with(item("AUTHORISATION", "8815000000000001", "pay_a", true, 1000, "EUR"),
                "additionalData", Map.of("metadata.paymentId", "pay_a", "metadata.attempt", "2"));

        ConnectorNotification notification = parse(NEW_KEY, List.of(authorised)).get(0);

        assertThat(notification.paymentId()).isEqualTo("pay_a");
        assertThat(notification.attempt()).isEqualTo(2);
        assertThat(notification.reference()).isEqualTo("8815000000000001");
        assertThat(notification.status()).isEqualTo(GatewayStatus.SUCCEEDED);
    }

    @Test
    void anAuthorisationWithoutMetadataNamesNoAttempt() {
        ConnectorNotification notification = parse(NEW_KEY,
                List.of(item("AUTHORISATION", "8815000000000002", "pay_b", true, 1000, "EUR"))).get(0);

        assertThat(notification.attempt()).isNull();
        assertThat(notification.paymentId()).isEqualTo("pay_b");
    }

    @Test
    void amountsComeBackInIsoUnits() {
        List<ConnectorNotification> notifications = parse(NEW_KEY, List.of(
                item("AUTHORISATION", "8815000000000003", "pay_clp", true, 500000, "CLP"),
                item("AUTHORISATION", "8815000000000004", "pay_isk", true, 279000, "ISK"),
                item("AUTHORISATION", "8815000000000005", "pay_cve", true, 123, "CVE"),
                item("AUTHORISATION", "8815000000000006", "pay_eur", true, 1000, "EUR"),
                item("AUTHORISATION", "8815000000000007", "pay_clp2", true, 500050, "CLP")));

        assertThat(notifications).extracting(ConnectorNotification::amount)
                .containsExactly(5000L, 2790L, 12300L, 1000L, AdyenWebhooks.NO_ISO_AMOUNT);
    }

    /**
     * Contract v3 (holds): a TECHNICAL_CANCEL (the answer to our cancel by reference) is reported CANCELLED with the
     * reason "confirmed: nothing was taken" (the domain FAILS an automatic payment `gateway_unreachable`, as before,
     * and ends a manual one CANCELLED); a CANCELLATION (a hold released by pspReference) is CANCELLED `cancelled`.
     */
    @Test
    void aSuccessfulTechnicalCancelConfirmsNothingTakenAndACancellationIsTheHoldReleased() {
        Map<String, Object> technical = with(with(item("TECHNICAL_CANCEL", "8515208516304269", "pay_c", true, 1000,
                "EUR"), "originalReference", "8313547924770610"), "additionalData",
                Map.of("metadata.paymentId", "pay_c", "metadata.attempt", "3"));
        Map<String, Object> cancellation = with(item("CANCELLATION", "8515208516304270", "pay_d-cancel", true, 1000,
                "EUR"), "originalReference", "8313547924770611");

        List<ConnectorNotification> notifications = parse(NEW_KEY, List.of(technical, cancellation));

        assertThat(notifications).hasSize(2);
        assertThat(notifications.get(0).status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(notifications.get(0).failureReason()).isEqualTo("gateway_unreachable");
        assertThat(notifications.get(0).confirmsNothingTaken()).isTrue();
        assertThat(notifications.get(0).attempt()).isEqualTo(3);
        assertThat(notifications.get(0).paymentId()).isEqualTo("pay_c");
        assertThat(notifications.get(0).reference()).as("the cancelled payment's pspReference")
                .isEqualTo("8313547924770610");
        assertThat(notifications.get(0).refundId()).isNull();
        assertThat(notifications.get(1).status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(notifications.get(1).failureReason()).isEqualTo("cancelled");
        assertThat(notifications.get(1).confirmsNothingTaken()).isFalse();
        assertThat(notifications.get(1).reference()).isEqualTo("8313547924770611");
        assertThat(notifications.get(1).paymentId()).as("from our cancel's reference").isEqualTo("pay_d");
        assertThat(notifications.get(1).attempt()).isEqualTo(1);
    }

    @Test
    void anAuthorisationOfAManualCaptureIsAHoldAndOneWithoutTheMarkIsACharge() {
        Map<String, Object> held = with(item("AUTHORISATION", "8815000000000020", "pay_m", true, 1000, "EUR"),
                "additionalData", Map.of("metadata.paymentId", "pay_m", "metadata.attempt", "1",
                        "metadata.captureMethod", "manual"));
        Map<String, Object> charged = with(item("AUTHORISATION", "8815000000000021", "pay_n", true, 1000, "EUR"),
                "additionalData", Map.of("metadata.paymentId", "pay_n", "metadata.attempt", "1"));
        Map<String, Object> refused = with(with(item("AUTHORISATION", "8815000000000022", "pay_o", false, 1000, "EUR"),
                "additionalData", Map.of("metadata.captureMethod", "manual")), "reason", "Refused");

        List<ConnectorNotification> notifications = parse(NEW_KEY, List.of(held, charged, refused));

        assertThat(notifications).extracting(ConnectorNotification::status)
                .containsExactly(GatewayStatus.AUTHORIZED, GatewayStatus.SUCCEEDED, GatewayStatus.FAILED);
    }

    @Test
    void aCaptureIsTheCapturedAmountOfThePaymentsPspReferenceNamedByOurCaptureReference() {
        Map<String, Object> captured = with(item("CAPTURE", "QFQTPCQ8HXSKGK90", "pay_p-attempt-2-capture-1", true,
                300000, "CLP"), "originalReference", "9913140798220028");

        ConnectorNotification notification = parse(NEW_KEY, List.of(captured)).get(0);

        assertThat(notification.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(notification.amount()).as("a partial capture of CLP 3000, back in ISO units").isEqualTo(3000L);
        assertThat(notification.currency()).isEqualTo("CLP");
        assertThat(notification.reference()).as("the payment's pspReference, not the capture's")
                .isEqualTo("9913140798220028");
        assertThat(notification.paymentId()).isEqualTo("pay_p");
        assertThat(notification.attempt()).isEqualTo(2);
        assertThat(notification.receiptId()).isEqualTo("adyen:QFQTPCQ8HXSKGK90:CAPTURE:true");
        assertThat(notification.refundId()).isNull();
    }

    @Test
    void aCaptureThatFailedIsCaptureFailedWithItsReason() {
        List<ConnectorNotification> notifications = parse(NEW_KEY, List.of(
                with(with(item("CAPTURE_FAILED", "QFQTPCQ8HXSKGK91", "pay_q-capture-1", true, 1000, "EUR"),
                        "originalReference", "9913140798220029"), "reason",
                        "Capture rejected by card scheme because of a technical issue."),
                with(with(item("CAPTURE", "QFQTPCQ8HXSKGK92", "pay_r-capture-2", false, 1000, "EUR"),
                        "originalReference", "9913140798220030"), "reason", "Insufficient balance on payment"),
                with(item("CAPTURE_FAILED", "QFQTPCQ8HXSKGK93", "pay_s", true, 1000, "EUR"),
                        "originalReference", "9913140798220031"),
                with(item("CAPTURE_FAILED", "QFQTPCQ8HXSKGK94", "pay_t", false, 1000, "EUR"),
                        "originalReference", "9913140798220032")));

        assertThat(notifications).hasSize(3);
        assertThat(notifications).extracting(ConnectorNotification::status).containsOnly(GatewayStatus.CAPTURE_FAILED);
        assertThat(notifications).extracting(ConnectorNotification::failureReason).containsExactly(
                "Capture rejected by card scheme because of a technical issue.", "Insufficient balance on payment",
                "capture_failed");
        assertThat(notifications).extracting(ConnectorNotification::reference)
                .containsExactly("9913140798220029", "9913140798220030", "9913140798220031");
        assertThat(notifications).extracting(ConnectorNotification::paymentId).containsExactly("pay_q", "pay_r",
                "pay_s");
    }

    @Test
    void anExpiredAuthorisationIsTheHoldReleased() {
        ConnectorNotification notification = parse(NEW_KEY,
                List.of(item("EXPIRE", "9913140798220033", "pay_u", true, 1000, "EUR"))).get(0);

        assertThat(notification.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(notification.failureReason()).isEqualTo("authorization_expired");
        assertThat(notification.reference()).isEqualTo("9913140798220033");
        assertThat(notification.paymentId()).isEqualTo("pay_u");
    }

    @Test
    void ourModificationReferencesNameThePaymentAndTheAttemptAndNothingElseDoes() {
        assertThat(AdyenWebhooks.ourReference("pay_a1-capture-1"))
                .isEqualTo(new AdyenWebhooks.AttemptKey("pay_a1", 1));
        assertThat(AdyenWebhooks.ourReference("pay_a1-attempt-3-capture-2"))
                .isEqualTo(new AdyenWebhooks.AttemptKey("pay_a1", 3));
        assertThat(AdyenWebhooks.ourReference("pay_a1-attempt-2-cancel"))
                .isEqualTo(new AdyenWebhooks.AttemptKey("pay_a1", 2));
        assertThat(AdyenWebhooks.ourReference("pay_a1")).isNull();
        assertThat(AdyenWebhooks.ourReference("re_a1")).isNull();
        assertThat(AdyenWebhooks.ourReference("pay_a1-attempt-0-cancel")).isNull();
        assertThat(AdyenWebhooks.ourReference(null)).isNull();
    }

    @Test
    void aTechnicalCancelThatFoundNothingNamesTheCancelAndThePayment() {
        ConnectorNotification notification = parse(NEW_KEY,
                List.of(item("TECHNICAL_CANCEL", "8515208516304271", "pay_e", true, 0, "EUR"))).get(0);

        assertThat(notification.failureReason()).isEqualTo("gateway_unreachable");
        assertThat(notification.confirmsNothingTaken()).isTrue();
        assertThat(notification.paymentId()).isEqualTo("pay_e");
        assertThat(notification.reference()).isEqualTo("8515208516304271");
    }

    @Test
    void anUnsuccessfulCancelIsNothing() {
        assertThat(parse(NEW_KEY, List.of(
                with(item("TECHNICAL_CANCEL", "8515208516304272", "pay_f", false, 1000, "EUR"),
                        "originalReference", "8313547924770612"),
                with(item("CANCELLATION", "8515208516304273", "pay_f", false, 1000, "EUR"),
                        "originalReference", "8313547924770612"),
                with(item("EXPIRE", "8515208516304274", "pay_f", false, 1000, "EUR"),
                        "originalReference", "8313547924770612")))).isEmpty();
    }

    @Test
    void aReversalIsTheRefundsOutcomeAndRefundFailuresAndReversalsFailTheRefund() {
        List<ConnectorNotification> notifications = parse(NEW_KEY, List.of(
                with(item("CANCEL_OR_REFUND", "QFQTPCQ8HXSKGK82", "re_orphan", true, 500000, "CLP"),
                        "additionalData", Map.of("modification.action", "cancel")),
                with(item("REFUND_FAILED", "QFQTPCQ8HXSKGK83", "re_failed", true, 1000, "EUR"),
                        "reason", "Refund Failed"),
                item("REFUNDED_REVERSED", "QFQTPCQ8HXSKGK84", "re_reversed", true, 1000, "EUR"),
                item("REFUND_FAILED", "QFQTPCQ8HXSKGK85", "not-ours", true, 1000, "EUR")));

        assertThat(notifications).hasSize(3);
        assertThat(notifications.get(0).refundId()).isEqualTo("re_orphan");
        assertThat(notifications.get(0).status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(notifications.get(0).amount()).isEqualTo(5000L);
        assertThat(notifications.get(1).refundId()).isEqualTo("re_failed");
        assertThat(notifications.get(1).status()).isEqualTo(GatewayStatus.FAILED);
        assertThat(notifications.get(1).failureReason()).isEqualTo("Refund Failed");
        assertThat(notifications.get(2).refundId()).isEqualTo("re_reversed");
        assertThat(notifications.get(2).status()).isEqualTo(GatewayStatus.FAILED);
        assertThat(notifications.get(2).failureReason()).isEqualTo("refund_reversed");
        assertThat(notifications).extracting(ConnectorNotification::receiptId).doesNotHaveDuplicates();
    }

    @Test
    void duringARotationAnItemSignedWithEitherKeyIsReadAndOneSignedWithNeitherIsReportedWithoutStoppingTheRest() {
        List<ConnectorNotification> notifications = parse(NEW_KEY + ", " + OLD_KEY, List.of(
                item("AUTHORISATION", "8815000000000010", "pay_new", true, 1000, "EUR"),
                with(item("AUTHORISATION", "8815000000000011", "pay_old", true, 1000, "EUR"), "signWith", OLD_KEY),
                with(item("AUTHORISATION", "8815000000000012", "pay_forged", true, 1000, "EUR"),
                        "signWith", FOREIGN_KEY),
                item("AUTHORISATION", "8815000000000013", "pay_after", true, 1000, "EUR")));

        assertThat(notifications).extracting(ConnectorNotification::paymentId)
                .containsExactly("pay_new", "pay_old", "pay_after");
        assertThat(failures).singleElement().asString().startsWith("adyen/m: ")
                .contains("8815000000000012").doesNotContain(NEW_KEY).doesNotContain(OLD_KEY);
    }

    @Test
    void withOneKeyAnItemSignedWithTheOldKeyIsReported() {
        List<ConnectorNotification> notifications = parse(NEW_KEY, List.of(
                with(item("AUTHORISATION", "8815000000000014", "pay_old", true, 1000, "EUR"), "signWith", OLD_KEY)));

        assertThat(notifications).isEmpty();
        assertThat(failures).hasSize(1);
    }

    @Test
    void theHmacKeySettingHoldsOneOrTwoKeys() {
        assertThat(AdyenWebhooks.hmacKeys(NEW_KEY)).containsExactly(NEW_KEY);
        assertThat(AdyenWebhooks.hmacKeys(" " + NEW_KEY + " ," + OLD_KEY + ",")).containsExactly(NEW_KEY, OLD_KEY);
        assertThat(AdyenWebhooks.hmacKeys(" , ")).isEmpty();
    }

    private static Map<String, Object> disputeItem(String eventCode, String disputePsp, String paymentPsp,
                                                   long value, String currency, Map<String, String> additionalData) {
        return with(with(item(eventCode, disputePsp, "pay_d", true, value, currency), "originalReference", paymentPsp),
                "additionalData", additionalData);
    }

    @Test
    void eachDisputeEventCodeIsADisputeReportOfThePaymentItsOriginalReferenceNames() {
        Map<String, DisputeNotice.Kind> kinds = new LinkedHashMap<>();
        kinds.put("NOTIFICATION_OF_CHARGEBACK", DisputeNotice.Kind.OPENED);
        kinds.put("REQUEST_FOR_INFORMATION", DisputeNotice.Kind.OPENED);
        kinds.put("CHARGEBACK", DisputeNotice.Kind.LOST);
        kinds.put("CHARGEBACK_REVERSED", DisputeNotice.Kind.WON);
        kinds.put("SECOND_CHARGEBACK", DisputeNotice.Kind.LOST);
        kinds.put("PREARBITRATION_WON", DisputeNotice.Kind.WON);
        kinds.put("PREARBITRATION_LOST", DisputeNotice.Kind.LOST);
        kinds.put("INFORMATION_SUPPLIED", DisputeNotice.Kind.UPDATED);
        kinds.put("DISPUTE_DEFENSE_PERIOD_ENDED", DisputeNotice.Kind.UPDATED);
        List<Map<String, Object>> items = new ArrayList<>();
        int n = 0;
        for (String eventCode : kinds.keySet()) {
            items.add(disputeItem(eventCode, "99150000000000" + (10 + n++), "8815000000000100", 1000, "EUR",
                    Map.of("chargebackReasonCode", "10.4")));
        }

        List<ConnectorNotification> notifications = parse(NEW_KEY, items);

        assertThat(notifications).hasSize(kinds.size()).allSatisfy(notification -> {
            assertThat(notification.isAboutADispute()).isTrue();
            assertThat(notification.reference()).as("the disputed charge").isEqualTo("8815000000000100");
            assertThat(notification.dispute().connectorReference()).as("one dispute per payment per cycle")
                    .isEqualTo("8815000000000100");
            assertThat(notification.paymentId()).isEqualTo("pay_d");
            assertThat(notification.refundId()).isNull();
            assertThat(notification.confirmsNothingTaken()).isFalse();
        });
        assertThat(notifications).extracting(notification -> notification.dispute().kind())
                .containsExactlyElementsOf(kinds.values());
        assertThat(notifications).extracting(ConnectorNotification::receiptId)
                .as("the report's own pspReference + eventCode + success").doesNotHaveDuplicates()
                .first().isEqualTo("adyen:9915000000000010:NOTIFICATION_OF_CHARGEBACK:true");
    }

    @Test
    void aNoticeOfChargebackCarriesItsAmountInIsoUnitsItsReasonCodeAndItsDefencePeriod() {
        ConnectorNotification notification = parse(NEW_KEY, List.of(disputeItem("NOTIFICATION_OF_CHARGEBACK",
                "9915000000000001", "8815000000000101", 250000, "CLP",
                Map.of("chargebackReasonCode", "10.4", "chargebackSchemeCode", "visa",
                        "defensePeriodEndsAt", "2021-05-24T22:09:50+02:00", "metadata.attempt", "2")))).get(0);

        DisputeNotice dispute = notification.dispute();
        assertThat(dispute.kind()).isEqualTo(DisputeNotice.Kind.OPENED);
        assertThat(dispute.amount()).as("CLP 2500, back in ISO units").isEqualTo(2500L);
        assertThat(notification.amount()).isEqualTo(2500L);
        assertThat(dispute.currency()).isEqualTo("CLP");
        assertThat(dispute.reason()).isEqualTo("10.4");
        assertThat(dispute.evidenceDueBy()).isEqualTo(Instant.parse("2021-05-24T20:09:50Z"));
        assertThat(notification.attempt()).isEqualTo(2);
    }

    @Test
    void withoutAReasonCodeTheItemsReasonIsTheDisputesAndWithoutADefencePeriodNoEvidenceIsDue() {
        Map<String, Object> item = with(disputeItem("CHARGEBACK", "9915000000000002", "8815000000000102", 1000, "EUR",
                Map.of("defensePeriodEndsAt", "not a date")), "reason", "Fraudulent transaction");

        ConnectorNotification notification = parse(NEW_KEY, List.of(item)).get(0);

        assertThat(notification.dispute().reason()).isEqualTo("Fraudulent transaction");
        assertThat(notification.dispute().evidenceDueBy()).isNull();
        assertThat(notification.attempt()).as("bound by its reference").isNull();
    }

    @Test
    void aDisputeItemWithoutTheDisputedPaymentOrUnsuccessfulIsNotApplied() {
        Map<String, Object> noPayment = item("CHARGEBACK", "9915000000000003", "pay_d", true, 1000, "EUR");
        Map<String, Object> unsuccessful = with(item("CHARGEBACK", "9915000000000004", "pay_d", false, 1000, "EUR"),
                "originalReference", "8815000000000104");

        assertThat(parse(NEW_KEY, List.of(noPayment, unsuccessful))).isEmpty();
        assertThat(failures).isEmpty();
    }

    @Test
    void aDisputeItemWithABadSignatureIsReportedAndNotApplied() {
        Map<String, Object> forged = with(disputeItem("CHARGEBACK_REVERSED", "9915000000000005", "8815000000000105",
                1000, "EUR", Map.of()), "signWith", FOREIGN_KEY);

        assertThat(parse(NEW_KEY, List.of(forged))).isEmpty();
        assertThat(failures).singleElement().asString().contains("9915000000000005");
    }
}
