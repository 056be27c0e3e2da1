package com.payorch.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeAdyen;
import com.payorch.fakes.FakeStripe;
import com.payorch.testsupport.ServiceInstances;
import com.payorch.testsupport.ServiceJvm;
import com.payorch.testsupport.TestDatabase;
import com.payorch.testsupport.TestMailServer;
import com.payorch.testsupport.TestQueries;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service process is killed (SIGKILL) after the PSP charged and before the service committed the outcome: the
 * service runs in a JVM of its own ({@link ServiceJvm}), the fake records the charge and holds its answer, the test
 * kills the JVM. A new instance on the same database then recovers the PENDING payment by resubmitting with the
 * attempt's idempotency key, which the PSP answers with the saved result: one charge at the PSP, the payment
 * COMPLETED, one booking activation, one confirmation e-mail.
 */
class ServiceKilledBetweenSubmitAndCommitIT {

    private static final String SCHEMA = "killed_submit_tests";
    private static final String MERCHANT_KEY = "sk_test_killed";
    private static final String STRIPE_KEY = "sk_test_51FakeKilledSecretKeyDoNotLog0007";
    private static final String ADYEN_KEY = "AQE_FakeKilledAdyenKeyDoNotLog_0007";
    private static final String ADYEN_ACCOUNT = "PayorchKilledECOM";
    private static final String ADYEN_HMAC = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";

    /** The restarted instance looks for stuck payments at once (the defaults wait 30 s). */
    private static final List<String> QUICK_RECOVERY = List.of(
            "--payments.recovery.pending-after=PT1S",
            "--payments.recovery.interval=PT0.5S",
            "--spring.mail.host=127.0.0.1",
            "--spring.mail.port=" + TestMailServer.port());

    @TempDir
    Path tempDir;

    @Test
    void stripeChargedThenServiceKilledBeforeCommitEndsWithOneChargeAfterRestart() throws Exception {
        try (FakeStripe stripe = new FakeStripe(0).acceptKey(STRIPE_KEY)) {
            List<String> settings = List.of(
                    "--payments.merchants.killed.api-key=" + MERCHANT_KEY,
                    "--payments.merchants.killed.routing=stripe",
                    "--payments.merchants.killed.connectors.stripe.secret-key=" + STRIPE_KEY,
                    "--payments.connectors.stripe.api-base=" + stripe.baseUrl());
            String booking = "bk_" + UUID.randomUUID().toString().substring(0, 12);
            String method = "pm_card_visa_killed";
            stripe.failNext(method, FakeStripe.Failure.HOLD_AFTER_CHARGE);

            String paymentId = killWhileThePspHoldsItsAnswer(settings, booking, method, () -> {
                List<String> charged = stripe.chargedIntents();
                return charged.isEmpty() ? null
                        : (String) ((Map<?, ?>) stripe.intent(charged.get(0)).get("metadata")).get("payment_id");
            });

            try (ServiceInstances restarted = restart(settings)) {
                TestQueries queries = restarted.queries();
                awaitOneCompletedPaymentWithOneActivationAndOneEmail(queries, booking, paymentId);
                assertThat(stripe.intentsFor(paymentId)).as("PaymentIntents created").isEqualTo(1);
                assertThat(stripe.chargesFor(paymentId)).as("charges").isEqualTo(1);
                assertThat(queries.text("select reference from payment_attempts where payment_id = $1", paymentId))
                        .isEqualTo(stripe.chargedIntents().get(0));
            }
        }
    }

    @Test
    void adyenAuthorisedThenServiceKilledBeforeCommitEndsWithOnePaymentAfterRestart() throws Exception {
        try (FakeAdyen adyen = new FakeAdyen().acceptKey(ADYEN_KEY)) {
            List<String> settings = List.of(
                    "--payments.merchants.killed.api-key=" + MERCHANT_KEY,
                    "--payments.merchants.killed.routing=adyen",
                    "--payments.merchants.killed.connectors.adyen.api-key=" + ADYEN_KEY,
                    "--payments.merchants.killed.connectors.adyen.merchant-account=" + ADYEN_ACCOUNT,
                    "--payments.merchants.killed.connectors.adyen.hmac-key=" + ADYEN_HMAC,
                    "--payments.connectors.adyen.checkout-url=" + adyen.checkoutUrl());
            String booking = "bk_" + UUID.randomUUID().toString().substring(0, 12);
            String method = "pm_stored_killed"; // sent as a storedPaymentMethodId, authorised by the fake
            adyen.failNext(method, FakeAdyen.Failure.HOLD_AFTER_CHARGE);

            String paymentId = killWhileThePspHoldsItsAnswer(settings, booking, method, () -> {
                List<Map<String, Object>> processed = adyen.payments();
                return processed.isEmpty() ? null : (String) processed.get(0).get("reference");
            });

            try (ServiceInstances restarted = restart(settings)) {
                TestQueries queries = restarted.queries();
                awaitOneCompletedPaymentWithOneActivationAndOneEmail(queries, booking, paymentId);
                List<Map<String, Object>> processed = adyen.paymentsFor(paymentId);
                assertThat(processed).as("payments Adyen processed").hasSize(1);
                assertThat(processed.get(0).get("resultCode")).isEqualTo("Authorised");
                assertThat(queries.text("select reference from payment_attempts where payment_id = $1", paymentId))
                        .isEqualTo(processed.get(0).get("pspReference"));
            }
        }
    }

    private interface ChargedPayment {
        /** The payment id the PSP recorded a charge for, or null while none. */
        String paymentId() throws Exception;
    }

    /**
     * Starts the service in its own JVM, posts the payment to it, waits until the PSP recorded the charge (its answer
     * is held), kills the JVM and checks that the database holds the payment PENDING with no outcome.
     */
    private String killWhileThePspHoldsItsAnswer(List<String> settings, String booking, String method,
                                                 ChargedPayment charged) throws Exception {
        String paymentId;
        try (ServiceJvm service = ServiceJvm.start(tempDir.resolve("service.log"), SCHEMA, settings)) {
            CompletableFuture<Integer> request = service.client().post().uri("/v1/payments")
                    .header("Authorization", "Bearer " + MERCHANT_KEY)
                    .header("Idempotency-Key", "key_" + UUID.randomUUID())
                    .header("Content-Type", "application/json")
                    .bodyValue("""
                            {"bookingId": "%s", "amount": 4200, "currency": "EUR", "paymentMethod": "%s",
                             "customerEmail": "guest+%s@example.com"}""".formatted(booking, method, booking))
                    .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value()))
                    .toFuture();
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                    .until(() -> charged.paymentId() != null);
            assertThat(request).as("the PSP holds its answer: the service has not answered").isNotDone();

            service.kill();
            paymentId = charged.paymentId();
            // the client's connection dies with the service: no answer, ever
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(request::isCompletedExceptionally);
        }
        assertThat(rowsOf("select status from %s.payments where id = ?".formatted(SCHEMA), paymentId))
                .as("killed before the outcome was committed").containsExactly("PENDING");
        assertThat(rowsOf("select coalesce(reference, '') from %s.payment_attempts where payment_id = ?"
                .formatted(SCHEMA), paymentId)).as("no reference recorded").containsExactly("");
        return paymentId;
    }

    private static ServiceInstances restart(List<String> settings) {
        List<String> arguments = new ArrayList<>(settings);
        arguments.addAll(QUICK_RECOVERY);
        return ServiceInstances.start(1, SCHEMA, arguments);
    }

    private static void awaitOneCompletedPaymentWithOneActivationAndOneEmail(TestQueries queries, String booking,
                                                                            String paymentId) {
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> "COMPLETED".equals(queries.statusOf(paymentId)));
        String email = "guest+" + booking + "@example.com";
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> TestMailServer.messagesTo(email).size() >= 1);
        assertThat(queries.count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
        assertThat(queries.count("select count(*) from payment_attempts where payment_id = $1", paymentId))
                .isEqualTo(1);
        assertThat(queries.count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'",
                paymentId)).isEqualTo(1);
        assertThat(queries.count("select count(*) from events where booking_id = $1 and type = 'booking.activated'",
                booking)).isEqualTo(1);
        assertThat(TestMailServer.messagesTo(email)).as("confirmation e-mails").hasSize(1);
    }

    private static List<String> rowsOf(String sql, String parameter) throws Exception {
        TestDatabase database = TestDatabase.get();
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.username(),
                database.password());
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            List<String> rows = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    rows.add(result.getString(1));
                }
            }
            return rows;
        }
    }
}
