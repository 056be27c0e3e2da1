package com.payorch.customeraction.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.console.ChromiumAvailable;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * 3-D Secure as a guest meets it, in a real browser (Debian's headless chromium): a payment made with a returnUrl on
 * the merchant's own page (a real HTTP server of the test's, another origin) waits for its customer; the browser
 * opens the payment's {@code nextAction.url} (the sandbox's authentication page), the guest approves or declines,
 * the browser lands back on the merchant's page with {@code payment_id}, and the sandbox's own signed webhook settles
 * the payment. The back button, a double click and a scripted double submit of the page charge nothing twice. Skipped,
 * with the install command, where chromium is missing.
 */
@ExtendWith(ChromiumAvailable.class)
@TestPropertySource(properties = {
        // the page makes the sandbox send its webhook, as in production: no webhook is sent by the test
        "payments.gateway.sandbox.webhooks=auto",
        "payments.gateway.sandbox.webhook-delay=PT0.2S"})
@OwnSchema("customer_action_browser_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class CustomerActionBrowserIT extends ApiTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static CustomerBrowser browser;
    private static MerchantReturnPage merchant;

    @BeforeAll
    static void start() throws IOException {
        merchant = MerchantReturnPage.start();
        browser = CustomerBrowser.start();
    }

    @AfterAll
    static void stop() throws IOException {
        if (browser != null) {
            browser.close();
        }
        if (merchant != null) {
            merchant.close();
        }
    }

    @BeforeEach
    void merchantServerDoesNothing() {
        merchant.onVisit(visit -> { });
    }

    @Test
    void anApprovedAuthenticationBringsTheGuestBackWithThePaymentIdAndCompletesThePaymentOnce() {
        String booking = unique("bk");
        String paymentId = paymentWaitingForCustomer(booking, "pm_card_3ds", "automatic");

        openAuthenticationPage(paymentId);
        assertThat(browser.text("#amount")).contains("12000").contains("JPY");
        browser.screenshot("authenticate");
        browser.find("button#approve").click();

        Map<String, String> visit = awaitReturnOf(paymentId);
        assertThat(visit).containsEntry("order", "42").containsEntry("payment_id", paymentId);
        assertThat(browser.text("#payment-id")).isEqualTo(paymentId);
        browser.screenshot("returned");

        awaitStatus(paymentId, "COMPLETED");
        awaitBookingActivated(booking);
        assertSettledOnce(paymentId, "succeeded", "COMPLETED");
        assertThat(payment(paymentId).path("nextAction").isNull()).as("no action left once settled").isTrue();
    }

    @Test
    void anApprovedAuthenticationOfAManualCapturePaymentAuthorizesIt() {
        String booking = unique("bk");
        String paymentId = paymentWaitingForCustomer(booking, "pm_card_3ds", "manual");

        openAuthenticationPage(paymentId);
        browser.find("button#approve").click();

        assertThat(awaitReturnOf(paymentId)).containsEntry("order", "42");
        awaitStatus(paymentId, "AUTHORIZED");
        assertSettledOnce(paymentId, "authorized", "AUTHORIZED");
        assertThat(payment(paymentId).path("amountCapturable").asLong()).isEqualTo(12000);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and to_status = 'COMPLETED'",
                paymentId)).isZero();
    }

    @Test
    void aDeclinedAuthenticationFailsThePaymentAndActivatesNoBooking() {
        String booking = unique("bk");
        String paymentId = paymentWaitingForCustomer(booking, "pm_card_3ds_declined", "automatic");

        openAuthenticationPage(paymentId);
        browser.find("button#decline").click();

        assertThat(awaitReturnOf(paymentId)).containsEntry("order", "42");
        awaitStatus(paymentId, "FAILED");
        assertThat(payment(paymentId).path("failureReason").asText()).isEqualTo("authentication_failed");
        assertThat(count("select count(*) from sandbox_charges where payment_id = $1", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from sandbox_charges where payment_id = $1 and status = 'failed'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and to_status = 'FAILED'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from bookings where id = $1 and status = 'ACTIVE'", booking)).isZero();
    }

    @Test
    void theBackButtonAfterApproveAndApproveAgainMeets409AndChargesNothingTwice() {
        String booking = unique("bk");
        String paymentId = paymentWaitingForCustomer(booking, "pm_card_3ds", "automatic");
        String page = openAuthenticationPage(paymentId);
        browser.find("button#approve").click();
        awaitReturnOf(paymentId);
        awaitStatus(paymentId, "COMPLETED");

        browser.driver().navigate().back();
        browser.waitFor().until(ExpectedConditions.urlContains("/sandbox/authenticate/"));
        browser.screenshot("back");
        if (browser.has("button#approve")) {
            // the page as it was (from the browser's cache): its token was used already
            browser.find("button#approve").click();
            browser.waitFor().until(driver -> browser.lastStatusOf(page) == 409);
        } else {
            assertThat(browser.lastStatusOf(page)).as("a settled charge's page, fetched again").isEqualTo(409);
        }
        browser.screenshot("approve-again");
        assertThat(browser.currentUrl()).startsWith(page);
        assertThat(merchant.visitsOf(paymentId)).as("the guest is not sent back a second time").hasSize(1);

        assertSettledOnce(paymentId, "succeeded", "COMPLETED");
        awaitBookingActivated(booking);
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
    }

    @Test
    void aDoubleClickOnApproveSettlesTheChargeOnce() {
        String booking = unique("bk");
        String paymentId = paymentWaitingForCustomer(booking, "pm_card_3ds", "automatic");
        openAuthenticationPage(paymentId);

        String page = browser.currentUrl();
        new Actions(browser.driver()).doubleClick(browser.find("button#approve")).perform();

        // the second click's POST may replace the first's navigation: the guest then sees the 409 page
        browser.waitFor().until(driver -> browser.currentUrl().startsWith(merchant.base())
                || browser.documents().stream().anyMatch(document -> document.url().startsWith(page)
                        && document.status() == 409));
        browser.screenshot("double-click");
        long posts = browser.postsTo(page);
        System.out.println("double click on Approve: the browser sent " + posts + " POST(s), landed on "
                + browser.currentUrl());
        assertThat(posts).isBetween(1L, 2L);
        assertThat(merchant.visitsOf(paymentId)).allSatisfy(visit -> assertThat(visit).containsEntry("order", "42"))
                .hasSizeLessThanOrEqualTo(1);
        awaitStatus(paymentId, "COMPLETED");
        awaitBookingActivated(booking);
        assertSettledOnce(paymentId, "succeeded", "COMPLETED");
    }

    @Test
    void twoSubmitsOfTheFormAtOnceByScriptSettleTheChargeOnceAndTheSecondMeets409() {
        String booking = unique("bk");
        String paymentId = paymentWaitingForCustomer(booking, "pm_card_3ds", "automatic");
        openAuthenticationPage(paymentId);

        // what a double-submitting page script does: the same form, token and decision, sent twice in parallel
        @SuppressWarnings("unchecked")
        List<String> answers = (List<String>) browser.asyncScript("""
                var done = arguments[arguments.length - 1];
                var form = document.querySelector('form');
                var body = new URLSearchParams(new FormData(form));
                body.set('decision', 'approve');
                function submit() {
                  return fetch(form.action, {method: 'POST', body: body, redirect: 'manual', credentials: 'same-origin'})
                      .then(function (r) { return r.type === 'opaqueredirect' ? 'redirect' : String(r.status); },
                            function (e) { return 'error ' + e; });
                }
                Promise.all([submit(), submit()]).then(done);""");

        assertThat(answers).containsExactlyInAnyOrder("redirect", "409");
        awaitStatus(paymentId, "COMPLETED");
        awaitBookingActivated(booking);
        assertSettledOnce(paymentId, "succeeded", "COMPLETED");
    }

    @Test
    void theMerchantsCompleteRacingTheSandboxWebhookCompletesThePaymentOnce() {
        String booking = unique("bk");
        String paymentId = paymentWaitingForCustomer(booking, "pm_card_3ds", "automatic");
        List<Integer> answers = new CopyOnWriteArrayList<>();
        // the merchant's server forwards the guest's return at once, while the sandbox's webhook is on its way
        merchant.onVisit(visit -> answers.add(complete(visit.get("payment_id"))));
        openAuthenticationPage(paymentId);

        browser.find("button#approve").click();
        answers.add(complete(paymentId));

        assertThat(awaitReturnOf(paymentId)).containsEntry("order", "42");
        awaitStatus(paymentId, "COMPLETED");
        awaitBookingActivated(booking);
        assertThat(answers).hasSize(2).allSatisfy(status -> assertThat(status)
                .as("completed or told the payment no longer waits (409 invalid_transition)").isIn(200, 409));
        assertSettledOnce(paymentId, "succeeded", "COMPLETED");
        Awaitility.await().atMost(WAIT).until(() -> count(
                "select count(*) from webhook_receipts where payment_id = $1", paymentId) >= 1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and to_status = 'COMPLETED'",
                paymentId)).isEqualTo(1);
    }

    // --- the service's API, as the merchant's server calls it

    private String paymentWaitingForCustomer(String booking, String paymentMethod, String captureMethod) {
        String paymentId = createPaymentFromBody("""
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "%s",
                 "captureMethod": "%s", "customerEmail": "guest@example.com", "description": "Room 101, 2 nights",
                 "returnUrl": "%s"}""".formatted(booking, paymentMethod, captureMethod, merchant.url("order=42")));
        awaitStatus(paymentId, "REQUIRES_ACTION");
        return paymentId;
    }

    /** {@code POST /v1/payments/{id}/complete} with {@code {}} (the service asks the sandbox): the HTTP status. */
    private int complete(String paymentId) {
        return client.post().uri("/v1/payments/" + paymentId + "/complete")
                .header("Authorization", "Bearer " + DEMO_KEY).header("Idempotency-Key", unique("complete"))
                .header("Content-Type", "application/json").bodyValue("{}")
                .exchange().returnResult(byte[].class).getStatus().value();
    }

    private JsonNode payment(String paymentId) {
        byte[] body = client.get().uri("/v1/payments/" + paymentId).header("Authorization", "Bearer " + DEMO_KEY)
                .exchange().expectStatus().isOk().expectBody().returnResult().getResponseBody();
        return JSON.readTree(body);
    }

    // --- the guest's browser

    /** Opens the payment's nextAction.url and answers it, once the page with its buttons is shown. */
    private String openAuthenticationPage(String paymentId) {
        JsonNode action = payment(paymentId).path("nextAction");
        assertThat(action.path("type").asText()).isEqualTo("redirect");
        String url = action.path("url").asText();
        assertThat(url).startsWith("http://localhost:" + port + "/sandbox/authenticate/ch_");
        browser.open(url);
        browser.waitFor().until(ExpectedConditions.presenceOfElementLocated(
                org.openqa.selenium.By.cssSelector("button#approve")));
        assertThat(browser.has("button#decline")).isTrue();
        assertThat(browser.find("form input[name='token']").getAttribute("type")).isEqualTo("hidden");
        assertThat(browser.lastStatusOf(url)).isEqualTo(200);
        return url;
    }

    private Map<String, String> awaitReturnOf(String paymentId) {
        browser.waitFor().until(ExpectedConditions.urlContains(merchant.base() + "/return"));
        assertThat(browser.currentUrl()).contains("payment_id=" + paymentId);
        Awaitility.await().atMost(WAIT).until(() -> !merchant.visitsOf(paymentId).isEmpty());
        return merchant.visitsOf(paymentId).get(0);
    }

    // --- what the service and the sandbox recorded

    private void awaitStatus(String paymentId, String status) {
        Awaitility.await().atMost(WAIT).until(() -> status.equals(statusOf(paymentId)));
    }

    private void awaitBookingActivated(String booking) {
        Awaitility.await().atMost(WAIT).until(() ->
                count("select count(*) from bookings where id = $1 and status = 'ACTIVE'", booking) == 1);
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking))
                .isEqualTo(1);
    }

    /** One charge at the sandbox, in {@code chargeStatus}, and one transition of the payment into {@code status}. */
    private void assertSettledOnce(String paymentId, String chargeStatus, String status) {
        assertThat(count("select count(*) from sandbox_charges where payment_id = $1", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from sandbox_charges where payment_id = $1 and status = $2", paymentId,
                chargeStatus)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and to_status = $2",
                paymentId, status)).isEqualTo(1);
    }
}
