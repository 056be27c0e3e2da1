package com.payorch.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.security.DevelopmentDefaults;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

/**
 * The console's access rules over real HTTP, without a browser: form login, the merchant scope (404 for another
 * merchant's payment), CSRF on every action, an action key that makes a double submit do nothing twice, HTML
 * errors, secure headers, and the API chain unchanged next to it.
 */
class ConsoleAccessIT extends ApiTest {

    @Test
    void anUnauthenticatedVisitorIsSentToTheLoginFormAndTheApiIsUnchanged() {
        client.get().uri("/console/payments").accept(MediaType.TEXT_HTML).exchange()
                .expectStatus().isFound().expectHeader().location("/console/login");
        String login = client.get().uri("/console/login").exchange().expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_HTML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(login).contains("name=\"username\"").contains("name=\"password\"").contains("name=\"_csrf\"");

        // the API still wants its key, answers problem+json, and knows nothing of console sessions
        ConsoleSession operator = ConsoleSession.signIn(client, "operator",
                DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);
        client.get().uri("/v1/payments").cookie("SESSION", operator.cookie()).exchange()
                .expectStatus().isUnauthorized()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.code").isEqualTo("unauthenticated");
        client.get().uri("/v1/payments").header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk();
        client.get().uri("/actuator/health").exchange().expectStatus().isOk();
    }

    @Test
    void aWrongPasswordIsRefusedAndTheHeadersAreSecure() {
        var login = client.get().uri("/console/login").exchange().expectStatus().isOk()
                .expectHeader().valueEquals("X-Content-Type-Options", "nosniff")
                .expectHeader().valueEquals("X-Frame-Options", "DENY")
                .expectHeader().value("Content-Security-Policy", csp -> assertThat(csp)
                        .contains("script-src 'self'").contains("frame-ancestors 'none'"))
                .expectBody(String.class).returnResult();
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("username", "operator");
        form.add("password", "not-the-password");
        form.add("_csrf", ConsoleSession.find(java.util.regex.Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\""),
                login.getResponseBody()));
        client.post().uri("/console/login").cookie("SESSION", login.getResponseCookies().getFirst("SESSION").getValue())
                .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .body(org.springframework.web.reactive.function.BodyInserters.fromFormData(form))
                .exchange().expectStatus().isFound().expectHeader().location("/console/login?error");
    }

    @Test
    void aUserOfOneMerchantGets404ForAnotherMerchantsPayment() {
        String own = createPayment(unique("bk"), "pm_card_ok");
        String foreign = postPayment(OTHER_KEY, unique("key"), paymentBody(unique("bk"))).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseHeaders().getLocation().toString()
                .substring("/v1/payments/".length());
        ConsoleSession demoOnly = ConsoleSession.signIn(client, "demo-only", DEMO_ONLY_PASSWORD);

        assertThat(demoOnly.page("/console/payments/" + own)).contains(own).doesNotContain(DEMO_KEY)
                .contains("<svg").contains("data-state=\"PROCESSING\"");
        String notFound = demoOnly.get("/console/payments/" + foreign).expectStatus().isNotFound()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_HTML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(notFound).contains("Not found").doesNotContain("other");
        demoOnly.get("/console/payments/" + foreign + "/sections").expectStatus().isNotFound();
        demoOnly.get("/console/payments/" + foreign + "/confirm?action=refund").expectStatus().isNotFound();
        assertThat(demoOnly.page("/console/payments?q=" + foreign)).contains("No payment matches")
                .doesNotContain("/console/payments/" + foreign);
        assertThat(demoOnly.page("/console/payments?q=" + own)).contains("/console/payments/" + own);
        assertThat(demoOnly.page("/console/payments")).doesNotContain(">other<");

        ConsoleSession operator = ConsoleSession.signIn(client, "operator",
                DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);
        assertThat(operator.page("/console/payments/" + foreign)).contains(foreign);
        demoOnly.get("/console/no-such-page").expectStatus().isNotFound()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_HTML);
    }

    @Test
    void anActionNeedsTheCsrfTokenAndADoubleSubmitRefundsOnce() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, 12000, "JPY")).expectStatus().isOk();
        ConsoleSession operator = ConsoleSession.signIn(client, "operator",
                DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);
        String confirm = operator.page("/console/payments/" + paymentId + "/confirm?action=refund&amount=5000");
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("actionKey", ConsoleSession.actionKey(confirm));
        form.add("amount", "5000");

        operator.post("/console/payments/" + paymentId + "/refund", form, confirm, false)
                .expectStatus().isForbidden();
        assertThat(count("select count(*) from refunds where payment_id = $1", paymentId)).isZero();

        operator.post("/console/payments/" + paymentId + "/refund", form, confirm, true)
                .expectStatus().isSeeOther().expectHeader().location("/console/payments/" + paymentId);
        operator.post("/console/payments/" + paymentId + "/refund", form, confirm, true)
                .expectStatus().isSeeOther();
        assertThat(count("select count(*) from refunds where payment_id = $1", paymentId)).isEqualTo(1);
        assertThat(operator.page("/console/payments/" + paymentId)).contains("Nothing done twice")
                .contains("5000 JPY");

        // an action on another merchant's payment is 404 even with a valid token
        ConsoleSession demoOnly = ConsoleSession.signIn(client, "demo-only", DEMO_ONLY_PASSWORD);
        String foreign = postPayment(OTHER_KEY, unique("key"), paymentBody(unique("bk"))).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseHeaders().getLocation().toString()
                .substring("/v1/payments/".length());
        String ownConfirm = demoOnly.page("/console/payments/" + paymentId + "/confirm?action=retry");
        MultiValueMap<String, String> retry = new LinkedMultiValueMap<>();
        retry.add("actionKey", ConsoleSession.actionKey(ownConfirm));
        demoOnly.post("/console/payments/" + foreign + "/retry", retry, ownConfirm, true).expectStatus().isNotFound();
        Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(statusOf(foreign)).isIn("PENDING", "PROCESSING"));
    }

    @Test
    void redeliverAndRequeueGoThroughTheirFeaturesOnceEach() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        String eventId = db.sql("select id from events where payment_id = $1 order by seq limit 1").bind(0, paymentId)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
        ConsoleSession operator = ConsoleSession.signIn(client, "operator",
                DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);

        // merchant demo has no webhook-url here: refused, nothing queued
        String confirmRedeliver = operator.page("/console/events/" + eventId + "/confirm?action=redeliver");
        MultiValueMap<String, String> redeliver = new LinkedMultiValueMap<>();
        redeliver.add("actionKey", ConsoleSession.actionKey(confirmRedeliver));
        redeliver.add("back", "/console/payments/" + paymentId);
        operator.post("/console/events/" + eventId + "/redeliver", redeliver, confirmRedeliver, true)
                .expectStatus().isSeeOther().expectHeader().location("/console/payments/" + paymentId);
        assertThat(operator.page("/console/payments/" + paymentId)).contains("Refused:").contains("no webhook-url");
        assertThat(count("select count(*) from webhook_deliveries where event_id = $1", eventId)).isZero();

        // requeue: the event is parked by hand, requeued once; the same confirmation again does nothing
        db.sql("update events set parked_at = now(), dispatched_at = null where id = $1").bind(0, eventId)
                .fetch().rowsUpdated().block(Duration.ofSeconds(10));
        assertThat(operator.page("/console/attention")).contains(eventId);
        String confirmRequeue = operator.page("/console/events/" + eventId + "/confirm?action=requeue");
        MultiValueMap<String, String> requeue = new LinkedMultiValueMap<>();
        requeue.add("actionKey", ConsoleSession.actionKey(confirmRequeue));
        operator.post("/console/events/" + eventId + "/requeue", requeue, confirmRequeue, true)
                .expectStatus().isSeeOther().expectHeader().location("/console/attention");
        assertThat(operator.page("/console/attention")).contains("Event " + eventId + " requeued.");
        assertThat(count("select count(*) from events where id = $1 and parked_at is null", eventId)).isEqualTo(1);
        db.sql("update events set parked_at = now(), dispatched_at = null where id = $1").bind(0, eventId)
                .fetch().rowsUpdated().block(Duration.ofSeconds(10));
        operator.post("/console/events/" + eventId + "/requeue", requeue, confirmRequeue, true)
                .expectStatus().isSeeOther();
        assertThat(operator.page("/console/attention")).contains("Nothing done twice");
        assertThat(count("select count(*) from events where id = $1 and parked_at is not null", eventId))
                .as("the second submit of the same confirmation did not requeue again").isEqualTo(1);
        db.sql("update events set parked_at = null where id = $1").bind(0, eventId)
                .fetch().rowsUpdated().block(Duration.ofSeconds(10));
    }

    @Test
    void theOverviewAndTheAttentionListsRender() {
        ConsoleSession operator = ConsoleSession.signIn(client, "operator",
                DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);
        createPayment(unique("bk"), "pm_card_ok");
        assertThat(operator.page("/console")).contains("<svg").contains("Payments per status").contains("Backlogs");
        assertThat(operator.page("/console/attention")).contains("Stuck payments").contains("Dead-lettered events")
                .contains("Failed merchant webhook deliveries").contains("Orphaned charges");
    }

    @Test
    void aRedeliveredGatewayWebhookShowsAsADuplicateOnThePaymentPageAndInTheOverview() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        String webhookId = unique("msg");
        String body = webhookBody("payment.succeeded", paymentId, 12000, "JPY");
        for (int delivery = 0; delivery < 3; delivery++) {
            sendWebhook(webhookId, body).expectStatus().isOk();
        }
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1", webhookId)).isEqualTo(1);
        assertThat(count("select duplicates::bigint from webhook_receipts where webhook_id = $1", webhookId))
                .isEqualTo(2);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and to_status = 'COMPLETED'",
                paymentId)).isEqualTo(1);

        ConsoleSession operator = ConsoleSession.signIn(client, "operator",
                DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);
        assertThat(operator.page("/console/payments/" + paymentId)).contains("payment.succeeded: applied")
                .contains("payment.succeeded: duplicate × 2");
        assertThat(operator.page("/console")).contains("duplicate");
    }
}
