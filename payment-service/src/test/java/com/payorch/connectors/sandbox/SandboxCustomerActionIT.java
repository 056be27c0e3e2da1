package com.payorch.connectors.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.CompleteRequest;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.web.reactive.function.BodyInserters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The sandbox's 3-D Secure over real HTTP: `pm_card_3ds` with a returnUrl waits for the customer on the sandbox's page,
 * whose form settles the charge once (whatever is posted in parallel or again), sends the sandbox's webhook and
 * sends the browser back to the merchant with `payment_id`.
 */
@TestPropertySource(properties = {
        "payments.gateway.sandbox.webhooks=auto",
        "payments.gateway.sandbox.webhook-delay=PT0.2S"})
@OwnSchema("sandbox_customer_action_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class SandboxCustomerActionIT extends ApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SETTLED = Duration.ofSeconds(30);
    private static final String RETURN_URL = "https://shop.example.com/return?order=7";
    private static final Pattern TOKEN = Pattern.compile("name=\"token\" value=\"([^\"]+)\"");

    @Autowired
    SandboxGateway sandbox;

    private static String body(String booking, String method, String returnUrl, boolean manual) {
        return """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "%s",
                 "customerEmail": "guest@example.com"%s%s}""".formatted(booking, method,
                returnUrl == null ? "" : ", \"returnUrl\": \"" + returnUrl + "\"",
                manual ? ", \"captureMethod\": \"manual\"" : "");
    }

    private JsonNode created(String idempotencyKey, String body) {
        return JSON.readTree(postPayment(DEMO_KEY, idempotencyKey, body).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseBody());
    }

    private JsonNode payment(String id) {
        return JSON.readTree(client.get().uri("/v1/payments/" + id).header("Authorization", "Bearer " + DEMO_KEY)
                .exchange().expectStatus().isOk().expectBody().returnResult().getResponseBody());
    }

    /** The page path of a payment waiting for its customer, checked against what the API answered. */
    private String pagePath(JsonNode waiting) {
        assertThat(waiting.get("status").asText()).isEqualTo("REQUIRES_ACTION");
        assertThat(waiting.get("nextAction").get("type").asText()).isEqualTo("redirect");
        String url = waiting.get("nextAction").get("url").asText();
        String base = "http://localhost:" + port;
        assertThat(url).startsWith(base + "/sandbox/authenticate/ch_");
        String path = url.substring(base.length());
        assertThat(path).isEqualTo("/sandbox/authenticate/" + latestChargeOf(waiting.get("id").asText()));
        return path;
    }

    private String tokenFrom(String path) {
        EntityExchangeResult<String> page = client.get().uri(path).exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_HTML)
                .expectBody(String.class).returnResult();
        String html = page.getResponseBody();
        assertThat(html).contains("<form method=\"post\" action=\"" + path + "\">")
                .contains("<button type=\"submit\" id=\"approve\" name=\"decision\" value=\"approve\">")
                .contains("<button type=\"submit\" id=\"decline\" name=\"decision\" value=\"decline\">")
                .contains("id=\"amount\">12000 JPY<");
        Matcher token = TOKEN.matcher(html);
        assertThat(token.find()).isTrue();
        return token.group(1);
    }

    private EntityExchangeResult<String> decide(String path, String token, String decision) {
        return client.post().uri(path).contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .body(BodyInserters.fromFormData("token", token).with("decision", decision))
                .exchange().expectBody(String.class).returnResult();
    }

    private void awaitStatus(String paymentId, String status) {
        Awaitility.await().atMost(SETTLED).until(() -> status.equals(statusOf(paymentId)));
    }

    private String chargeStatus(String paymentId) {
        return db.sql("select status from sandbox_charges where payment_id = $1").bind(0, paymentId)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
    }

    @Test
    void approvingSendsTheCustomerBackAndCompletesThePaymentOnce() {
        String booking = unique("bk");
        JsonNode waiting = created(unique("key"), body(booking, "pm_card_3ds", RETURN_URL, false));
        String id = waiting.get("id").asText();
        String path = pagePath(waiting);
        assertThat(chargeStatus(id)).isEqualTo("requires_action");

        EntityExchangeResult<String> approved = decide(path, tokenFrom(path), "approve");

        assertThat(approved.getStatus()).isEqualTo(HttpStatus.SEE_OTHER);
        assertThat(approved.getResponseHeaders().getFirst("Location")).isEqualTo(RETURN_URL + "&payment_id=" + id);
        awaitStatus(id, "COMPLETED");
        Awaitility.await().atMost(SETTLED).until(() -> count(
                "select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking) == 1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.completed'", id))
                .isEqualTo(1);
        assertThat(chargeStatus(id)).isEqualTo("succeeded");
        assertThat(payment(id).get("nextAction").isNull()).isTrue();
    }

    @Test
    void aReusedTokenIsRefusedAndChangesNothing() {
        String id = created(unique("key"), body(unique("bk"), "pm_card_3ds", RETURN_URL, false)).get("id").asText();
        String path = "/sandbox/authenticate/" + latestChargeOf(id);
        String token = tokenFrom(path);
        assertThat(decide(path, token, "decline").getStatus()).isEqualTo(HttpStatus.SEE_OTHER);
        awaitStatus(id, "FAILED");

        EntityExchangeResult<String> again = decide(path, token, "approve");

        assertThat(again.getStatus()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(again.getResponseHeaders().getContentType().isCompatibleWith(MediaType.TEXT_HTML)).isTrue();
        assertThat(again.getResponseBody()).contains("id=\"problem\"");
        assertThat(chargeStatus(id)).isEqualTo("failed");
        assertThat(count("select count(*) from sandbox_charges where payment_id = $1 and failure_reason ="
                + " 'authentication_failed'", id)).isEqualTo(1);
        assertThat(payment(id).get("failureReason").asText()).isEqualTo("authentication_failed");
        // a fresh page of a settled charge cannot settle it again either
        client.get().uri(path).exchange().expectStatus().isEqualTo(HttpStatus.CONFLICT);
    }

    @Test
    void aManualCapturePaymentIsAuthorisedWhenApproved() {
        String id = created(unique("key"), body(unique("bk"), "pm_card_3ds", RETURN_URL, true)).get("id").asText();
        String path = "/sandbox/authenticate/" + latestChargeOf(id);

        assertThat(decide(path, tokenFrom(path), "approve").getStatus()).isEqualTo(HttpStatus.SEE_OTHER);

        awaitStatus(id, "AUTHORIZED");
        assertThat(chargeStatus(id)).isEqualTo("authorized");
    }

    @Test
    void aCardThatFailsAuthenticationFailsEvenWhenApproved() {
        String id = created(unique("key"), body(unique("bk"), "pm_card_3ds_declined", RETURN_URL, false))
                .get("id").asText();
        String path = "/sandbox/authenticate/" + latestChargeOf(id);

        assertThat(decide(path, tokenFrom(path), "approve").getStatus()).isEqualTo(HttpStatus.SEE_OTHER);

        awaitStatus(id, "FAILED");
        assertThat(payment(id).get("failureReason").asText()).isEqualTo("authentication_failed");
    }

    @Test
    void parallelPostsOfOneTokenSettleTheChargeOnce() throws Exception {
        String booking = unique("bk");
        String id = created(unique("key"), body(booking, "pm_card_3ds", RETURN_URL, false)).get("id").asText();
        String path = "/sandbox/authenticate/" + latestChargeOf(id);
        String token = tokenFrom(path);

        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<HttpStatus> answers = new ArrayList<>();
        try {
            List<Callable<HttpStatus>> posts = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                posts.add(() -> HttpStatus.valueOf(decide(path, token, "approve").getStatus().value()));
            }
            for (Future<HttpStatus> answer : pool.invokeAll(posts)) {
                answers.add(answer.get());
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(answers).filteredOn(HttpStatus.SEE_OTHER::equals).hasSize(1);
        assertThat(answers).filteredOn(HttpStatus.CONFLICT::equals).hasSize(15);
        awaitStatus(id, "COMPLETED");
        assertThat(count("select count(*) from sandbox_charges where payment_id = $1", id)).isEqualTo(1);
        assertThat(count("select count(*) from sandbox_page_tokens t join sandbox_charges c on c.id = t.charge_id"
                + " where c.payment_id = $1", id)).isEqualTo(1);
        assertThat(count("select count(*) from payment_attempts where payment_id = $1", id)).isEqualTo(1);
        Awaitility.await().atMost(SETTLED).until(() -> count(
                "select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking) == 1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.completed'", id))
                .isEqualTo(1);
    }

    @Test
    void whileWaitingTheCreateRetryAnswersTheSameAndTheBookingIsHeld() {
        String booking = unique("bk");
        String key = unique("key");
        String body = body(booking, "pm_card_3ds", RETURN_URL, false);
        byte[] first = postPayment(DEMO_KEY, key, body).exchange().expectStatus().isCreated().expectBody()
                .returnResult().getResponseBody();
        String id = JSON.readTree(first).get("id").asText();

        byte[] retried = postPayment(DEMO_KEY, key, body).exchange().expectStatus().isCreated().expectBody()
                .returnResult().getResponseBody();

        assertThat(new String(retried)).isEqualTo(new String(first));
        assertThat(count("select count(*) from sandbox_charges where payment_id = $1", id)).isEqualTo(1);
        postPayment(DEMO_KEY, unique("key"), body(booking, "pm_card_ok", RETURN_URL, false)).exchange()
                .expectStatus().isEqualTo(HttpStatus.CONFLICT)
                .expectBody().jsonPath("$.code").isEqualTo("booking_payment_in_progress");
        assertThat(statusOf(id)).isEqualTo("REQUIRES_ACTION");
    }

    @Test
    void theBookingIsHeldUntilSettled() {
        String booking = unique("bk");
        String id = created(unique("key"), body(booking, "pm_card_3ds_declined", RETURN_URL, false))
                .get("id").asText();
        String path = pagePath(payment(id));

        postPayment(DEMO_KEY, unique("key"), body(booking, "pm_card_ok", null, false)).exchange()
                .expectStatus().isEqualTo(HttpStatus.CONFLICT)
                .expectBody().jsonPath("$.code").isEqualTo("booking_payment_in_progress");
        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);

        assertThat(decide(path, tokenFrom(path), "decline").getStatus()).isEqualTo(HttpStatus.SEE_OTHER);
        awaitStatus(id, "FAILED");
        assertThat(payment(id).get("failureReason").asText()).isEqualTo("authentication_failed");

        String next = created(unique("key"), body(booking, "pm_card_ok", null, false)).get("id").asText();

        assertThat(next).isNotEqualTo(id);
        awaitStatus(next, "COMPLETED");
        assertThat(statusOf(id)).isEqualTo("FAILED");
        Awaitility.await().atMost(SETTLED).until(() -> count(
                "select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking) == 1);
    }

    @Test
    void withoutAReturnUrlThePaymentFailsAuthenticationRequiredAndNothingIsTaken() {
        String id = created(unique("key"), body(unique("bk"), "pm_card_3ds", null, false)).get("id").asText();

        awaitStatus(id, "FAILED");
        JsonNode failed = payment(id);
        assertThat(failed.get("failureReason").asText()).isEqualTo("authentication_required");
        assertThat(failed.get("nextAction").isNull()).isTrue();
        assertThat(chargeStatus(id)).isEqualTo("failed");
    }

    @Test
    void aCancelledChargeCannotBeApprovedAfterwards() {
        String id = created(unique("key"), body(unique("bk"), "pm_card_3ds", RETURN_URL, false)).get("id").asText();
        String path = "/sandbox/authenticate/" + latestChargeOf(id);
        String token = tokenFrom(path);
        ChargeRequest charge = new ChargeRequest(id, 1, 12000, "JPY", "pm_card_3ds");

        assertThat(sandbox.cancel(new CancelRequest(charge, null)).block(Duration.ofSeconds(10)).status())
                .isEqualTo(GatewayStatus.CANCELLED);
        EntityExchangeResult<String> approved = decide(path, token, "approve");

        assertThat(approved.getStatus()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(chargeStatus(id)).isEqualTo("cancelled");
        assertThat(sandbox.find(charge).block(Duration.ofSeconds(10)).status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(statusOf(id)).isNotEqualTo("COMPLETED");
    }

    @Test
    void theSameAttemptSubmittedAgainIsTheSameWaitingChargeAndALookUpNamesItsPage() {
        ChargeRequest charge = new ChargeRequest(unique("pay"), 1, 500, "EUR", "pm_card_3ds")
                .returningTo(RETURN_URL + "&payment_id=x");

        GatewayOutcome first = sandbox.submit(charge).block(Duration.ofSeconds(10));
        GatewayOutcome again = sandbox.submit(charge).block(Duration.ofSeconds(10));
        GatewayOutcome found = sandbox.find(charge).block(Duration.ofSeconds(10));
        GatewayOutcome completed = sandbox.complete(new CompleteRequest(charge, null)).block(Duration.ofSeconds(10));

        assertThat(first.status()).isEqualTo(GatewayStatus.REQUIRES_ACTION);
        assertThat(first.nextActionUrl())
                .isEqualTo("http://localhost:" + port + "/sandbox/authenticate/" + first.reference());
        assertThat(again).isEqualTo(first);
        assertThat(found).isEqualTo(first);
        assertThat(completed).isEqualTo(first);
        assertThat(count("select count(*) from sandbox_charges where payment_id = $1", charge.paymentId()))
                .isEqualTo(1);
    }

    @Test
    void aForgedTokenIsABadRequestAndAnUnknownChargeIsNotFound() {
        String id = created(unique("key"), body(unique("bk"), "pm_card_3ds", RETURN_URL, false)).get("id").asText();
        String path = "/sandbox/authenticate/" + latestChargeOf(id);
        String token = tokenFrom(path);
        String other = "/sandbox/authenticate/" + latestChargeOf(
                created(unique("key"), body(unique("bk"), "pm_card_3ds", RETURN_URL, false)).get("id").asText());

        assertThat(decide(path, token.substring(0, token.length() - 2) + "xx", "approve").getStatus())
                .isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(decide(other, token, "approve").getStatus()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(decide(path, token, "maybe").getStatus()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(decide("/sandbox/authenticate/ch_nosuchcharge", token, "approve").getStatus())
                .isEqualTo(HttpStatus.NOT_FOUND);
        client.get().uri("/sandbox/authenticate/ch_nosuchcharge").exchange().expectStatus().isNotFound();
        assertThat(chargeStatus(id)).isEqualTo("requires_action");
        // the refusals above used nothing up: the token still works
        assertThat(decide(path, token, "approve").getStatus()).isEqualTo(HttpStatus.SEE_OTHER);
    }
}
