package com.payorch.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.chaos.CampaignFacts.PspCharge;
import com.payorch.chaos.workload.WorkloadTargets;
import com.payorch.chaos.world.World;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.util.FileSystemUtils;

/**
 * The campaign's world works, end to end, before any workload or checker: every merchant's payment completes through
 * the instances and the links; a gateway answer lost after the charge is settled by recovery with one charge; an
 * instance killed with SIGKILL and PostgreSQL shut down the hard way both come back on their ports, and payments
 * complete afterwards; the e-mails, merchant deliveries and PSP ledgers show up in the campaign's facts.
 */
class ChaosWorldSmokeIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void theWorldRunsLosesAnAnswerSurvivesAKilledInstanceAndAPostgresCrashAndSettles() throws Exception {
        Path out = Path.of("target", "chaos-smoke-" + UUID.randomUUID().toString().substring(0, 8));
        try (World world = World.start(new World.Config(out, 3, false, null, "320m"))) {
            List<String> urls = world.instanceBaseUrls();
            assertThat(urls).hasSize(3).doesNotHaveDuplicates();
            Map<String, String> before = createOnePerMerchant(world, urls, 0);
            await().atMost(WAIT).until(() -> statuses(world, before.values()).stream().allMatch("COMPLETED"::equals));

            // A Stripe answer lost after the charge (i1's link to the fake): recovery finds the charge, one charge.
            world.link("i1.stripe").loseAnswers();
            String lostBooking = "bk_lost_" + UUID.randomUUID().toString().substring(0, 8);
            create(urls.get(0), merchant("m_stripe").apiKey(), "key_" + lostBooking, lostBooking);
            await().atMost(Duration.ofSeconds(10)).until(() -> world.link("i1.stripe").answersDropped() > 0);
            world.link("i1.stripe").heal();

            // i2 killed, PostgreSQL crashed; both back on their ports.
            int i2Port = world.instance("i2").port();
            world.instance("i2").kill();
            world.postgres().immediateShutdown();
            assertThat(world.instance("i2").isAlive()).isFalse();
            world.postgres().startServer();
            world.instance("i2").start();
            world.instance("i2").awaitReady(Duration.ofSeconds(120));
            assertThat(world.instance("i2").port()).isEqualTo(i2Port);
            assertThat(world.instance("i2").starts()).isEqualTo(2);

            Map<String, String> after = createOnePerMerchant(world, urls, 1);
            String lostPayment = paymentOfBooking(world, lostBooking);
            List<String> all = new ArrayList<>(before.values());
            all.addAll(after.values());
            all.add(lostPayment);
            await().atMost(WAIT).until(() -> statuses(world, all).stream().allMatch("COMPLETED"::equals));
            assertThat(world.stripe().intentsFor(lostPayment)).isEqualTo(1);
            assertThat(world.stripe().chargesFor(lostPayment)).isEqualTo(1);

            // The facts the checker reads: one charge per PSP payment, every e-mail and delivery arrived.
            CampaignFacts facts = world.facts(List.of());
            List<PspCharge> charges = facts.pspCharges();
            assertThat(charges).filteredOn(c -> c.connector().equals("stripe")).hasSize(5); // stripe, failover ×2, lost
            assertThat(charges).filteredOn(c -> c.connector().equals("adyen")).hasSize(2);
            assertThat(charges).allSatisfy(c -> {
                assertThat(c.succeeded()).isTrue();
                assertThat(c.idempotencyKey()).isEqualTo(c.reference()); // attempt 1: the payment id
                assertThat(all).contains(c.reference());
            });
            await().atMost(WAIT).until(() -> facts.mails().size() >= all.size());
            assertThat(facts.mails()).hasSize(all.size());
            await().atMost(WAIT).until(() -> all.stream().allMatch(id -> facts.merchantDeliveries().stream()
                    .anyMatch(d -> d.status() == 204 && d.body().contains(id))));
            await().atMost(WAIT).until(() -> world.unsettled().values().stream().allMatch(n -> n == 0));
            assertThat(world.link("i2.db").connections()).as("i2 reconnected through its link").isGreaterThan(1);
            assertThat(facts.kafkaRecords()).isEmpty();
        }
        FileSystemUtils.deleteRecursively(out.resolve("postgres")); // the logs stay
    }

    private static WorkloadTargets.Merchant merchant(String id) {
        return World.MERCHANTS.stream().filter(m -> m.id().equals(id)).findFirst().orElseThrow();
    }

    /** One payment per merchant, the n-th merchant through instance (n + shift) mod 3; payment ids by merchant. */
    private static Map<String, String> createOnePerMerchant(World world, List<String> urls, int shift)
            throws SQLException {
        Map<String, String> payments = new LinkedHashMap<>();
        for (int i = 0; i < World.MERCHANTS.size(); i++) {
            WorkloadTargets.Merchant merchant = World.MERCHANTS.get(i);
            String url = urls.get((i + shift) % urls.size());
            String booking = "bk_" + merchant.id() + "_" + UUID.randomUUID().toString().substring(0, 8);
            String key = "key_" + booking;
            // Right after an outage a request may still meet it (503): the same key again until it is created.
            await().atMost(WAIT).until(() -> create(url, merchant.apiKey(), key, booking) == 201);
            payments.put(merchant.id(), paymentOfBooking(world, booking));
        }
        return payments;
    }

    private static int create(String baseUrl, String apiKey, String idempotencyKey, String booking) {
        String body = """
                {"bookingId": "%s", "amount": 5000, "currency": "USD", "paymentMethod": "pm_card_visa",
                 "customerEmail": "guest+%s@example.com"}""".formatted(booking, booking);
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/payments"))
                    .timeout(Duration.ofSeconds(15))
                    .header("Authorization", "Bearer " + apiKey)
                    .header("Idempotency-Key", idempotencyKey)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (java.io.IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String paymentOfBooking(World world, String booking) throws SQLException {
        try (Connection connection = world.postgres().connect();
             PreparedStatement statement = connection.prepareStatement("select id from payments where booking_id = ?")) {
            statement.setString(1, booking);
            try (ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).as("a payment for " + booking).isTrue();
                return rows.getString(1);
            }
        }
    }

    private static List<String> statuses(World world, java.util.Collection<String> paymentIds) throws SQLException {
        List<String> statuses = new ArrayList<>();
        try (Connection connection = world.postgres().connect();
             PreparedStatement statement = connection.prepareStatement("select status from payments where id = ?")) {
            for (String id : paymentIds) {
                statement.setString(1, id);
                try (ResultSet rows = statement.executeQuery()) {
                    statuses.add(rows.next() ? rows.getString(1) : "MISSING");
                }
            }
        }
        return statuses;
    }
}
