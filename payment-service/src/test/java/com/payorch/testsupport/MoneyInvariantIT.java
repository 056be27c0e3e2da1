package com.payorch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.MoneyInvariant.Books;
import com.payorch.testsupport.MoneyInvariant.Charge;
import com.payorch.testsupport.MoneyInvariant.Kind;
import com.payorch.testsupport.MoneyInvariant.Violation;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * The money invariant over a real service's database: payments through the sandbox with its faults (an answer lost
 * after the charge, a charge reported failed that took the money, declines, refunds), recovery and the sandbox's
 * settlement left to run; then every sandbox charge backs its payment's attempt or was given back exactly once.
 */
@TestPropertySource(properties = {
        "payments.recovery.pending-after=PT1S",
        "payments.recovery.processing-after=PT1S",
        "payments.recovery.interval=PT0.2S",
        "payments.recovery.refund-pending-after=PT0.2S",
        // the sandbox settles its charges and refunds by itself, soon; recovery reads the outcomes
        "payments.gateway.sandbox.webhook-delay=PT0.2S",
        "payments.gateway.sandbox.poll-interval=PT0.1S"})
@OwnSchema("money_invariant_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class MoneyInvariantIT extends ApiTest {

    private static final String SCHEMA = "money_invariant_tests";

    @Autowired
    SandboxFaults faults;

    @Test
    void everySandboxChargeBacksItsAttemptOrIsGivenBackOnceAfterFaultsAndRecovery() throws Exception {
        String completed = createPayment(unique("bk"), "pm_card_ok");
        String declined = createPayment(unique("bk"), "pm_card_declined");

        // the sandbox charges, the answer is lost: recovery resubmits under the same key, no second charge
        String lostBooking = unique("bk");
        faults.loseNextResponse();
        postPayment(DEMO_KEY, unique("key"), paymentBody(lostBooking)).exchange().expectStatus().is5xxServerError();
        String lostAnswer = queries.paymentOfBooking(lostBooking);

        // attempt 1 reported failed although the sandbox took the money; retried; then its success arrives late
        String orphaned = createPayment(unique("bk"), "pm_card_ok");
        String firstCharge = latestChargeOf(orphaned);
        sendWebhook(unique("msg"), webhookBody("payment.failed", orphaned, firstCharge, 12000, "JPY"))
                .expectStatus().isOk();
        post("/v1/payments/" + orphaned + "/retry", "{}");

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(statusOf(completed))
                && "COMPLETED".equals(statusOf(lostAnswer)) && "COMPLETED".equals(statusOf(orphaned))
                && "FAILED".equals(statusOf(declined)));
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", orphaned, firstCharge, 12000, "JPY"))
                .expectStatus().isOk();
        post("/v1/payments/" + completed + "/refunds", "{\"amount\": 5000}");

        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(count("select count(*) from refunds where status <> 'SUCCEEDED'")).isZero();
            assertThat(count("select count(*) from refunds")).isEqualTo(2);
            assertThat(violations(true)).isEmpty();
        });

        List<Charge> charges = charges();
        Books books = books();
        assertThat(charges.stream().filter(c -> c.status() != MoneyInvariant.ChargeStatus.DECLINED)).hasSize(4);
        assertThat(charges.stream().filter(c -> c.paymentId().equals(lostAnswer))).hasSize(1);
        assertThat(MoneyInvariant.unbacked(charges, books)).singleElement().satisfies(charge -> {
            assertThat(charge.paymentId()).isEqualTo(orphaned);
            assertThat(charge.attempt()).isEqualTo(1);
            assertThat(charge.givenBack()).isEqualTo(12000);
        });

        // the same books without the orphan's refund row: the invariant sees money kept
        Books withoutTheOrphansRefund = new Books(books.payments(), books.attempts(),
                books.refunds().stream().filter(MoneyInvariant.Refund::countsAgainstPayment).toList());
        assertThat(MoneyInvariant.check(charges, withoutTheOrphansRefund, true)).extracting(Violation::kind)
                .contains(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE, Kind.ORPHAN_REFUND_ROWS);
    }

    private void post(String path, String body) {
        client.post().uri(path)
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", unique("key"))
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchange().expectStatus().is2xxSuccessful();
    }

    private List<Violation> violations(boolean settled) throws SQLException {
        return MoneyInvariant.check(charges(), books(), settled);
    }

    private List<Charge> charges() throws SQLException {
        try (Connection connection = connection()) {
            return MoneyInvariant.sandboxCharges(connection);
        }
    }

    private Books books() throws SQLException {
        try (Connection connection = connection()) {
            return Books.read(connection);
        }
    }

    private static Connection connection() throws SQLException {
        TestDatabase db = TestDatabase.get();
        Connection connection = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
        connection.setSchema(SCHEMA);
        return connection;
    }
}
