package com.payorch.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.payments.IdempotentPaymentFlow;
import com.payorch.security.DevelopmentDefaults;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

/**
 * The console's capture and cancel of a hold over real HTTP, without a browser: each confirmed first, the CSRF token
 * required, another merchant's payment 404, a double submit of one confirmation one action, and a refused action
 * (not AUTHORIZED, an amount out of range) shown as a notice with its reason, never a 5xx.
 */
class ConsoleHoldActionsIT extends ApiTest {

    @Autowired
    private IdempotentPaymentFlow flow;

    private ManualPayments holds() {
        return new ManualPayments(flow, client, db);
    }

    @Test
    void aConfirmedPartialCaptureIsSentOnceAndSettlesToCompleted() {
        String paymentId = holds().authorized();
        ConsoleSession operator = operator();
        String page = operator.page("/console/payments/" + paymentId);
        assertThat(page).contains("id=\"capture-method\">manual<").contains("id=\"amount-capturable\">12000 JPY<")
                .contains("id=\"capture-amount\"").contains("value=\"12000\"").contains("id=\"cancel-hold\"")
                .contains("id=\"authorization-expires-at\"");

        String confirm = operator.page("/console/payments/" + paymentId + "/confirm?action=capture&amount=5000");
        assertThat(confirm).contains("Capture <strong>5000 JPY</strong>").contains(paymentId);
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("actionKey", ConsoleSession.actionKey(confirm));
        form.add("amount", "5000");

        operator.post("/console/payments/" + paymentId + "/capture", form, confirm, false)
                .expectStatus().isForbidden();
        assertThat(statusOf(paymentId)).isEqualTo("AUTHORIZED");

        operator.post("/console/payments/" + paymentId + "/capture", form, confirm, true)
                .expectStatus().isSeeOther().expectHeader().location("/console/payments/" + paymentId);
        operator.post("/console/payments/" + paymentId + "/capture", form, confirm, true)
                .expectStatus().isSeeOther();
        assertThat(count("select captures::bigint from payments where id = $1", paymentId))
                .as("one capture for two submits of one confirmation").isEqualTo(1);
        assertThat(count("select capture_amount from payments where id = $1", paymentId)).isEqualTo(5000);
        assertThat(statusOf(paymentId)).isEqualTo("CAPTURING");
        assertThat(operator.page("/console/payments/" + paymentId)).contains("Nothing done twice")
                .contains("Capture of 5000 JPY of payment " + paymentId + " sent: CAPTURING")
                .contains("AUTHORIZED → CAPTURING (CAPTURE)").contains("id=\"capture-in-flight\"")
                .doesNotContain("id=\"capture-amount\"").doesNotContain("id=\"cancel-hold\"");

        holds().captured(paymentId, 5000);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> statusOf(paymentId).equals("COMPLETED"));
        assertThat(operator.page("/console/payments/" + paymentId)).contains("CAPTURING → COMPLETED (SUCCEED)")
                .contains("id=\"amount-captured\">5000 JPY<").contains("event payment.authorized")
                .contains("event payment.completed");
    }

    @Test
    void aCaptureTheConnectorFailsLeavesTheHoldCapturableAndTheTimelineSaysSo() {
        String paymentId = holds().authorized("demo", "pm_card_capture_fails");
        ConsoleSession operator = operator();
        String confirm = operator.page("/console/payments/" + paymentId + "/confirm?action=capture");
        assertThat(confirm).contains("everything held (12000 JPY)");
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("actionKey", ConsoleSession.actionKey(confirm));
        operator.post("/console/payments/" + paymentId + "/capture", form, confirm, true)
                .expectStatus().isSeeOther();
        assertThat(statusOf(paymentId)).isEqualTo("CAPTURING");

        holds().captureFailed(paymentId);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> statusOf(paymentId).equals("AUTHORIZED"));
        assertThat(operator.page("/console/payments/" + paymentId)).contains("CAPTURING → AUTHORIZED (CAPTURE_FAIL)")
                .contains("event payment.capture_failed").contains("capture_declined")
                .contains("id=\"amount-capturable\">12000 JPY<").contains("id=\"capture-amount\"")
                .contains("id=\"cancel-hold\"");
    }

    @Test
    void aConfirmedCancelReleasesTheHoldAndTheTimelineSaysWhy() {
        String paymentId = holds().authorized();
        ConsoleSession operator = operator();
        String confirm = operator.page("/console/payments/" + paymentId
                + "/confirm?action=cancel&reason=guest+cancelled");
        assertThat(confirm).contains("the hold is released").contains("guest cancelled");
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("actionKey", ConsoleSession.actionKey(confirm));
        form.add("reason", "guest cancelled");

        operator.post("/console/payments/" + paymentId + "/cancel", form, confirm, false)
                .expectStatus().isForbidden();
        assertThat(count("select count(*) from payments where id = $1 and cancel_requested_at is null", paymentId))
                .isEqualTo(1);

        operator.post("/console/payments/" + paymentId + "/cancel", form, confirm, true)
                .expectStatus().isSeeOther().expectHeader().location("/console/payments/" + paymentId);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> statusOf(paymentId).equals("CANCELLED"));
        String page = operator.page("/console/payments/" + paymentId);
        assertThat(page).contains("Cancel of payment " + paymentId + " sent: CANCELLED")
                .contains("AUTHORIZED → CANCELLED (CANCEL)").contains("cancel requested")
                .contains("id=\"cancel-requested\"").contains("guest cancelled")
                .contains("event payment.cancelled").contains("No action applies to this payment now.");

        // the same confirmation again: answered from the stored result, nothing sent twice
        operator.post("/console/payments/" + paymentId + "/cancel", form, confirm, true)
                .expectStatus().isSeeOther();
        assertThat(operator.page("/console/payments/" + paymentId)).contains("Nothing done twice");
    }

    @Test
    void refusedCapturesAndCancelsShowTheirReasonAndChangeNothing() {
        String paymentId = holds().authorized();
        ConsoleSession operator = operator();

        String tooMuch = operator.page("/console/payments/" + paymentId + "/confirm?action=capture&amount=12001");
        MultiValueMap<String, String> over = new LinkedMultiValueMap<>();
        over.add("actionKey", ConsoleSession.actionKey(tooMuch));
        over.add("amount", "12001");
        operator.post("/console/payments/" + paymentId + "/capture", over, tooMuch, true)
                .expectStatus().isSeeOther();
        assertThat(operator.page("/console/payments/" + paymentId)).contains("Refused:")
                .contains("exceeds what payment " + paymentId + " can capture (12000 JPY)");

        String zero = operator.page("/console/payments/" + paymentId + "/confirm?action=capture&amount=0");
        MultiValueMap<String, String> none = new LinkedMultiValueMap<>();
        none.add("actionKey", ConsoleSession.actionKey(zero));
        none.add("amount", "0");
        operator.post("/console/payments/" + paymentId + "/capture", none, zero, true).expectStatus().isSeeOther();
        assertThat(operator.page("/console/payments/" + paymentId)).contains("Refused:")
                .contains("whole number of at least 1");
        assertThat(statusOf(paymentId)).isEqualTo("AUTHORIZED");
        assertThat(count("select captures::bigint from payments where id = $1", paymentId)).isZero();

        // an automatic payment that completed: neither a capture nor a cancel applies (409 invalid_transition)
        String completed = createPayment(unique("bk"), "pm_card_ok");
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", completed, 12000, "JPY")).expectStatus().isOk();
        String captureIt = operator.page("/console/payments/" + completed + "/confirm?action=capture");
        MultiValueMap<String, String> capture = new LinkedMultiValueMap<>();
        capture.add("actionKey", ConsoleSession.actionKey(captureIt));
        operator.post("/console/payments/" + completed + "/capture", capture, captureIt, true)
                .expectStatus().isSeeOther();
        assertThat(operator.page("/console/payments/" + completed)).contains("Refused:").contains("CAPTURE");
        String cancelIt = operator.page("/console/payments/" + completed + "/confirm?action=cancel");
        MultiValueMap<String, String> cancel = new LinkedMultiValueMap<>();
        cancel.add("actionKey", ConsoleSession.actionKey(cancelIt));
        operator.post("/console/payments/" + completed + "/cancel", cancel, cancelIt, true)
                .expectStatus().isSeeOther();
        assertThat(operator.page("/console/payments/" + completed)).contains("Refused:").contains("CANCEL");
        assertThat(statusOf(completed)).isEqualTo("COMPLETED");
    }

    @Test
    void anotherMerchantsHoldIs404EvenWithAValidToken() {
        String own = holds().authorized();
        String foreign = holds().authorized("other");
        ConsoleSession demoOnly = ConsoleSession.signIn(client, "demo-only", DEMO_ONLY_PASSWORD);

        demoOnly.get("/console/payments/" + foreign + "/confirm?action=capture").expectStatus().isNotFound();
        String ownConfirm = demoOnly.page("/console/payments/" + own + "/confirm?action=capture");
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("actionKey", ConsoleSession.actionKey(ownConfirm));
        demoOnly.post("/console/payments/" + foreign + "/capture", form, ownConfirm, true).expectStatus().isNotFound();
        demoOnly.post("/console/payments/" + foreign + "/cancel", form, ownConfirm, true).expectStatus().isNotFound();
        assertThat(statusOf(foreign)).isEqualTo("AUTHORIZED");
        assertThat(count("select count(*) from payments where id = $1 and captures = 0"
                + " and cancel_requested_at is null", foreign)).isEqualTo(1);
    }

    @Test
    void holdsAboutToLapseAndCapturesWithoutAnOutcomeNeedAttention() {
        String lapsing = holds().authorized();
        String later = holds().authorized();
        String capturing = holds().authorized();
        db.sql("update payments set authorization_expires_at = now() + interval '1 hour' where id = $1")
                .bind(0, lapsing).fetch().rowsUpdated().block(Duration.ofSeconds(10));
        ConsoleSession operator = operator();
        String confirm = operator.page("/console/payments/" + capturing + "/confirm?action=capture");
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("actionKey", ConsoleSession.actionKey(confirm));
        operator.post("/console/payments/" + capturing + "/capture", form, confirm, true).expectStatus().isSeeOther();
        assertThat(statusOf(capturing)).isEqualTo("CAPTURING");
        db.sql("update payments set changed_at = now() - interval '1 day' where id = $1")
                .bind(0, capturing).fetch().rowsUpdated().block(Duration.ofSeconds(10));

        String attention = operator.page("/console/attention");
        String holdsSection = attention.substring(attention.indexOf("id=\"expiring-holds\""),
                attention.indexOf("id=\"attempts\""));
        assertThat(holdsSection).contains(lapsing).doesNotContain(later).doesNotContain(capturing);
        String stuckSection = attention.substring(attention.indexOf("id=\"stuck\""),
                attention.indexOf("id=\"expiring-holds\""));
        assertThat(stuckSection).contains(capturing).contains("CAPTURING").doesNotContain(lapsing);

        assertThat(operator.page("/console")).contains("holds AUTHORIZED, not captured or cancelled yet")
                .contains("captures sent without an outcome (CAPTURING)");
        assertThat(operator.page("/console/payments?status=AUTHORIZED")).contains(lapsing).contains(later)
                .doesNotContain(capturing);
        assertThat(operator.page("/console/payments?status=CAPTURING")).contains(capturing).doesNotContain(later);
    }

    private ConsoleSession operator() {
        return ConsoleSession.signIn(client, "operator", DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);
    }
}
