package com.payorch.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.payments.IdempotentPaymentFlow;
import com.payorch.security.DevelopmentDefaults;
import com.payorch.testsupport.ApiTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser (Debian's headless chromium through chromedriver), against the whole service on a
 * random port: sign in, search a payment, see its state on the life-cycle diagram, refund it with the confirmation
 * step, watch the refund settle on the open page without a reload (server-sent events); capture part of a hold
 * through the form and watch it complete; and a user of one merchant meets 404 on another merchant's payment. Every page visited is saved as a screenshot under
 * {@code target/console-screenshots/}. Skipped, with the install command, where chromium is missing.
 */
@ExtendWith(ChromiumAvailable.class)
class ConsoleBrowserIT extends ApiTest {

    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    private static ChromeDriver browser;

    @Autowired
    private IdempotentPaymentFlow flow;
    private static Path profile;

    @BeforeAll
    static void startBrowser() throws IOException {
        profile = Files.createTempDirectory("console-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(ChromiumAvailable.CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,1000", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(ChromiumAvailable.CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void anOperatorFindsAPaymentSeesItsStateRefundsItAndWatchesTheRefundSettleLive() {
        String bookingId = unique("bk");
        String paymentId = createPayment(bookingId, "pm_card_ok");
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, 12000, "JPY")).expectStatus().isOk();

        signIn("operator", DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Overview");
        assertThat(browser.findElements(By.cssSelector("svg.chart"))).hasSize(2);
        screenshot("overview");

        // search by booking id from the payment list
        browser.get(url("/console/payments"));
        browser.findElement(By.id("f-q")).sendKeys(bookingId);
        browser.findElement(By.id("apply-filters")).click();
        waitFor().until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("a.payment-link"), 1));
        screenshot("payments");
        browser.findElement(By.cssSelector("a.payment-link")).click();
        waitFor().until(ExpectedConditions.textToBe(By.id("payment-id"), paymentId));
        assertThat(text("#payment-status")).isEqualTo("COMPLETED");
        assertThat(text("#booking-status")).isEqualTo("ACTIVE");
        assertDiagramShows("COMPLETED");
        assertThat(browser.getPageSource()).doesNotContain(DEMO_KEY);
        waitForLiveUpdates();
        screenshot("payment");

        // a refund made elsewhere (here: through the API) appears on the open page without a reload
        ((JavascriptExecutor) browser).executeScript("window.sameDocument = 'still here';");
        client.post().uri("/v1/payments/" + paymentId + "/refunds").header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", unique("refund")).header("Content-Type", "application/json")
                .bodyValue("{\"amount\": 2000}").exchange().expectStatus().isCreated();
        waitFor().until(driver -> count(".refund-row") == 1);
        assertThat(refundStatuses()).isEqualTo("PENDING");
        assertSameDocument();

        // the rest through the console's confirmation step (empty amount: all that is still refundable)
        // (the page may refresh its live part meanwhile: what was typed stays, a stale element is found again)
        onLivePage(() -> browser.findElement(By.id("refund-reason")).sendKeys("requested_by_customer"));
        onLivePage(() -> browser.findElement(By.id("refund")).click());
        waitFor().until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(browser.findElement(By.cssSelector(".confirm-text")).getText())
                .contains("everything still refundable (10000 JPY)").contains(paymentId);
        screenshot("confirm-refund");
        browser.findElement(By.id("confirm")).click();
        waitFor().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".notice"),
                "Refund re_"));
        assertThat(refundStatuses()).isEqualTo("PENDING,PENDING");

        // the connector settles both while the page stays open: the page changes without a reload
        ((JavascriptExecutor) browser).executeScript("window.sameDocument = 'still here';");
        waitForLiveUpdates();
        db.sql("select id, amount from refunds where payment_id = $1").bind(0, paymentId)
                .map(row -> new Object[] {row.get("id", String.class), row.get("amount", Long.class)})
                .all().collectList().block(Duration.ofSeconds(10))
                .forEach(refund -> sendWebhook(unique("msg"), """
                        {"type": "refund.succeeded", "data": {"refundId": "%s", "paymentId": "%s", "chargeId": "%s",
                         "amount": %d, "currency": "JPY"}}""".formatted(refund[0], paymentId,
                        latestChargeOf(paymentId), (Long) refund[1])).expectStatus().isOk());
        waitFor().until(driver -> refundStatuses().equals("SUCCEEDED,SUCCEEDED"));
        waitFor().until(driver -> text("#booking-status").equals("CANCELLED"));
        assertSameDocument();
        assertThat(text("#amount-refunded")).isEqualTo("12000 JPY");
        assertThat(count("#timeline li[data-kind='refund']")).isEqualTo(4);
        screenshot("payment-refunded-live");

        browser.get(url("/console/attention"));
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Needs attention");
        screenshot("attention");
        signOut();
    }

    @Test
    void anOperatorCapturesPartOfAHoldThroughTheFormAndWatchesItComplete() {
        String paymentId = new ManualPayments(flow, client, db).authorized();
        signIn("operator", DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);

        browser.get(url("/console/payments?status=AUTHORIZED"));
        waitFor().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("a.payment-link")));
        browser.get(url("/console/payments/" + paymentId));
        waitFor().until(ExpectedConditions.textToBe(By.id("payment-id"), paymentId));
        assertThat(text("#payment-status")).isEqualTo("AUTHORIZED");
        assertThat(text("#capture-method")).isEqualTo("manual");
        assertThat(text("#amount-capturable")).isEqualTo("12000 JPY");
        assertThat(text("#authorization-expires-at")).isNotEqualTo("—").isNotEmpty();
        assertThat(text("#booking-status")).isEqualTo("ACTIVE");
        assertThat(attributes("#diagram g.state.current", "data-state")).containsExactly("AUTHORIZED");
        assertThat(attributes("#diagram .transition.taken", "data-from", "data-to"))
                .contains("PENDING>PROCESSING", "PROCESSING>AUTHORIZED");
        waitForLiveUpdates();
        screenshot("payment-authorized");

        // part of the hold, through the form and its confirmation
        onLivePage(() -> {
            WebElement amount = browser.findElement(By.id("capture-amount"));
            assertThat(amount.getAttribute("value")).isEqualTo("12000");
            amount.clear();
            amount.sendKeys("7000");
        });
        onLivePage(() -> browser.findElement(By.id("capture")).click());
        waitFor().until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm")));
        assertThat(browser.findElement(By.cssSelector(".confirm-text")).getText()).contains("Capture 7000 JPY")
                .contains(paymentId).contains("releases the rest");
        screenshot("confirm-capture");
        browser.findElement(By.id("confirm")).click();
        waitFor().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".notice"),
                "Capture of 7000 JPY"));
        assertThat(text("#payment-status")).isEqualTo("CAPTURING");
        assertThat(attributes("#timeline li[data-kind='transition'] .summary", "textContent"))
                .contains("AUTHORIZED → CAPTURING (CAPTURE)");

        // the connector settles the capture while the page stays open
        ((JavascriptExecutor) browser).executeScript("window.sameDocument = 'still here';");
        waitForLiveUpdates();
        new ManualPayments(flow, client, db).captured(paymentId, 7000);
        waitFor().until(driver -> text("#payment-status").equals("COMPLETED"));
        assertSameDocument();
        assertThat(text("#amount-captured")).isEqualTo("7000 JPY");
        assertThat(attributes("#timeline li[data-kind='transition'] .summary", "textContent"))
                .contains("AUTHORIZED → CAPTURING (CAPTURE)", "CAPTURING → COMPLETED (SUCCEED)");
        assertThat(attributes("#diagram .transition.taken", "data-from", "data-to"))
                .contains("PROCESSING>AUTHORIZED", "AUTHORIZED>CAPTURING", "CAPTURING>COMPLETED")
                .doesNotContain("PROCESSING>COMPLETED");
        assertThat(text("#booking-status")).isEqualTo("ACTIVE");
        screenshot("payment-captured");
        ((JavascriptExecutor) browser).executeScript("document.getElementById('lifecycle').scrollIntoView();");
        screenshot("payment-captured-lifecycle");
        signOut();
    }

    @Test
    void aUserOfOneMerchantMeets404OnAnotherMerchantsPayment() {
        String foreign = postPayment(OTHER_KEY, unique("key"), paymentBody(unique("bk"))).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseHeaders().getLocation().toString()
                .substring("/v1/payments/".length());
        String own = createPayment(unique("bk"), "pm_card_ok");
        signIn("demo-only", DEMO_ONLY_PASSWORD);

        browser.get(url("/console/payments/" + own));
        assertThat(browser.findElement(By.id("payment-id")).getText()).isEqualTo(own);
        browser.get(url("/console/payments/" + foreign));
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Not found");
        assertThat(browser.getPageSource()).doesNotContain("sk_test_other");
        screenshot("not-found");
        signOut();
    }

    /** Issue 24: a payment waiting for its customer, found by its status, shows where the customer goes and back. */
    @Test
    void anOperatorSeesAPaymentWaitingForItsCustomer() {
        String returnUrl = "https://merchant.example/back/" + unique("r");
        String paymentId = createPaymentFromBody("""
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_3ds",
                 "customerEmail": "guest@example.com", "returnUrl": "%s"}""".formatted(unique("bk"), returnUrl));
        signIn("operator", DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);

        browser.get(url("/console/payments?status=REQUIRES_ACTION"));
        waitFor().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("a.payment-link")));
        assertThat(attributes("a.payment-link", "textContent")).contains(paymentId);
        assertThat(text(".awaiting-customer")).startsWith("waiting for the customer for ");
        browser.get(url("/console/payments/" + paymentId));
        waitFor().until(ExpectedConditions.textToBe(By.id("payment-id"), paymentId));
        assertThat(text("#payment-status")).isEqualTo("REQUIRES_ACTION");
        assertThat(text("#return-url")).isEqualTo(returnUrl);
        assertThat(attributes("#next-action a", "href")).singleElement().asString()
                .startsWith(url("/sandbox/authenticate/ch_"));
        assertThat(attributes("#diagram g.state.current", "data-state")).containsExactly("REQUIRES_ACTION");
        assertThat(attributes("#diagram .transition.taken", "data-to")).contains("REQUIRES_ACTION");
        screenshot("payment-requires-action");
        signOut();
    }

    private static void onLivePage(Runnable interaction) {
        for (int attempt = 1; ; attempt++) {
            try {
                interaction.run();
                return;
            } catch (StaleElementReferenceException replacedMeanwhile) {
                if (attempt == 3) {
                    throw replacedMeanwhile;
                }
            }
        }
    }

    private void assertSameDocument() {
        assertThat(((JavascriptExecutor) browser).executeScript("return window.sameDocument;"))
                .as("the change appeared without a reload").isEqualTo("still here");
    }

    private void waitForLiveUpdates() {
        waitFor().until(ExpectedConditions.attributeToBe(By.id("live-status"), "data-state", "open"));
    }

    private void signIn(String user, String password) {
        browser.manage().deleteAllCookies();
        browser.get(url("/console"));
        waitFor().until(ExpectedConditions.urlContains("/console/login"));
        screenshot("login");
        WebElement name = browser.findElement(By.id("username"));
        name.sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(password);
        browser.findElement(By.id("sign-in")).click();
        waitFor().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".who"), user));
    }

    private void signOut() {
        browser.findElement(By.cssSelector(".who button")).click();
        waitFor().until(ExpectedConditions.urlContains("/console/login?logout"));
    }

    /** The diagram's current state is the payment's; the path taken is drawn on it. */
    private void assertDiagramShows(String status) {
        assertThat(count("#diagram svg[role='img']")).isEqualTo(1);
        assertThat(attributes("#diagram g.state.current", "data-state")).containsExactly(status);
        assertThat(attributes("#diagram g.state", "data-state"))
                .contains("PENDING", "PROCESSING", "COMPLETED", "FAILED");
        assertThat(attributes("#diagram .transition.taken", "data-from", "data-to"))
                .contains("PENDING>PROCESSING", "PROCESSING>COMPLETED")
                .doesNotContain("PROCESSING>FAILED", "FAILED>PENDING");
    }

    // The live page replaces its sections while the test reads them: each read is one script, never a stale element.

    private String refundStatuses() {
        return String.join(",", attributes(".refund-status", "textContent"));
    }

    private static String text(String selector) {
        Object text = ((JavascriptExecutor) browser).executeScript(
                "var e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;", selector);
        return text == null ? "" : (String) text;
    }

    private static long count(String selector) {
        return (Long) ((JavascriptExecutor) browser).executeScript(
                "return document.querySelectorAll(arguments[0]).length;", selector);
    }

    /** Per element: the named attributes (or {@code textContent}) joined with '>'. */
    @SuppressWarnings("unchecked")
    private static java.util.List<String> attributes(String selector, String... names) {
        return (java.util.List<String>) ((JavascriptExecutor) browser).executeScript("""
                var names = Array.prototype.slice.call(arguments, 1);
                return Array.from(document.querySelectorAll(arguments[0])).map(function (e) {
                  return names.map(function (n) {
                    return n === 'textContent' ? e.textContent.trim() : e.getAttribute(n);
                  }).join('>');
                });""", prepend(selector, names));
    }

    private static Object[] prepend(String first, String[] rest) {
        Object[] all = new Object[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    private WebDriverWait waitFor() {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(15));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    private String url(String path) {
        return "http://localhost:" + port + path;
    }

    private static void screenshot(String name) {
        try {
            Path png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
            Files.copy(png, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new IllegalStateException("screenshot " + name, e);
        }
    }

    @SuppressWarnings("unused")
    private static WebDriver driver() {
        return browser;
    }
}
