package com.payorch.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import com.payorch.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * With every poll interval at 30 s, a new payment's events are still delivered, and its sandbox charge settled,
 * within a few seconds: the triggers of V13 notify, the instance's LISTEN connection wakes the idle jobs. When that
 * connection is killed (pg_terminate_backend), the instance opens it again and is woken as before.
 */
@OwnSchema("wake_up_tests")
@TestPropertySource(properties = {
        "payments.outbox.poll-interval=PT30S",
        "payments.gateway.sandbox.poll-interval=PT30S",
        "payments.merchant-webhooks.poll-interval=PT30S"
})
class WakeUpIT extends ApiTest {

    private static final Duration WELL_BELOW_THE_POLL = Duration.ofSeconds(6);

    @Autowired
    WorkNotifications notifications;

    private void aNewPaymentIsDeliveredAndSettledWithoutWaitingForAPoll() {
        long received = notifications.received();
        String booking = unique("bk");
        String paymentId = createPayment(booking, "pm_card_ok");

        await().atMost(WELL_BELOW_THE_POLL).untilAsserted(() -> {
            assertThat(count("select count(*) from events where payment_id = $1 and dispatched_at is not null",
                    paymentId)).isEqualTo(2);
            assertThat(count("select count(*) from sandbox_charges where payment_id = $1 and status = 'succeeded'",
                    paymentId)).isEqualTo(1);
        });
        assertThat(notifications.received()).as("woken by notifications, not by a poll").isGreaterThan(received);
    }

    @Test
    void idleJobsAreWokenByTheNotificationOfNewWork() {
        await().atMost(Duration.ofSeconds(30)).until(() -> notifications.openings() >= 1);
        aNewPaymentIsDeliveredAndSettledWithoutWaitingForAPoll();
        aNewPaymentIsDeliveredAndSettledWithoutWaitingForAPoll();
    }

    @Test
    void aKilledListenConnectionIsOpenedAgainAndWakesTheJobsAsBefore() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> notifications.openings() >= 1);
        long openings = notifications.openings();
        TestDatabase database = TestDatabase.get();
        try (Connection jdbc = DriverManager.getConnection(database.jdbcUrl(), database.username(),
                database.password())) {
            int pid = listeningBackend(jdbc);
            assertThat(pid).as("the instance's LISTEN connection").isPositive();
            try (PreparedStatement kill = jdbc.prepareStatement("select pg_terminate_backend(?)")) {
                kill.setInt(1, pid);
                kill.executeQuery().close();
            }
        }
        await().atMost(Duration.ofSeconds(15)).until(() -> notifications.openings() > openings);
        aNewPaymentIsDeliveredAndSettledWithoutWaitingForAPoll();
    }

    private static int listeningBackend(Connection jdbc) throws Exception {
        try (PreparedStatement statement = jdbc.prepareStatement("""
                select pid from pg_stat_activity
                where pid <> pg_backend_pid() and query = 'LISTEN "payorch_work.wake_up_tests"'""");
             ResultSet rows = statement.executeQuery()) {
            return rows.next() ? rows.getInt(1) : -1;
        }
    }
}
