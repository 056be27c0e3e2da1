package com.payorch.lists;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.events.EventStore;
import com.payorch.events.EventType;
import com.payorch.payments.PaymentFilter;
import com.payorch.payments.internal.PaymentListQueries;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.SqlPart;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Keyset pagination of `GET /v1/payments` and `GET /v1/events`: the shape, the filters, the cursor rules, a walk
 * while rows are inserted, and the plan of every list query on 100,000 rows. Own schema: the bulk rows must not
 * reach other tests' lists or relays.
 */
@TestPropertySource(properties = {
        "payments.merchants.pager.api-key=sk_test_pager",
        "payments.merchants.filters.api-key=sk_test_filters",
        "spring.r2dbc.properties.schema=" + ListsIT.SCHEMA,
        "spring.flyway.schemas=" + ListsIT.SCHEMA,
        "spring.flyway.default-schema=" + ListsIT.SCHEMA
})
class ListsIT extends ApiTest {

    static final String SCHEMA = "lists_tests";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Instant BASE = Instant.parse("2026-06-01T00:00:00Z");

    @Autowired
    PaymentListQueries payments;

    @Autowired
    EventStore events;

    @Test
    void everyListQueryUsesAnIndexOnAHundredThousandRows() {
        boolean loaded = count("select count(*) from payments where merchant_id like 'bulk%'") > 0;
        if (!loaded) {
            exec("""
                    insert into payments (id, merchant_id, booking_id, amount, currency, payment_method, status, attempt,
                        version, created_at, updated_at)
                    select 'pay_bulk' || lpad(i::text, 7, '0'), 'bulk' || (i % 5), 'bk_bulk' || i, 1000, 'JPY',
                        'pm_card_ok', (array['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'])[1 + (i / 5) % 4], 1, 1,
                        timestamptz '2026-01-01T00:00:00Z' + (i / 3) * interval '1 second',
                        timestamptz '2026-01-01T00:00:00Z' + (i / 3) * interval '1 second'
                    from generate_series(1, 100000) i""");
            exec("""
                    insert into events (id, merchant_id, type, payment_id, booking_id, data, created_at, dispatched_at)
                    select 'evt_bulk' || lpad(i::text, 7, '0'), 'bulk' || (i % 5),
                        (array['payment.created', 'payment.processing', 'payment.completed', 'payment.failed',
                               'booking.activated'])[1 + (i / 5) % 5],
                        'pay_bulk' || lpad(i::text, 7, '0'), 'bk_bulk' || i, '{}',
                        timestamptz '2026-01-01T00:00:00Z' + i * interval '1 second', now()
                    from generate_series(1, 100000) i""");
        }
        exec("analyze payments");
        exec("analyze events");
        assertThat(count("select count(*) from payments")).isGreaterThanOrEqualTo(100_000);
        assertThat(count("select count(*) from events")).isGreaterThanOrEqualTo(100_000);

        PaymentListQueries.Cursor cursor = new PaymentListQueries.Cursor(Instant.parse("2026-01-01T05:00:00Z"),
                "pay_bulk0054000");
        Instant after = Instant.parse("2026-01-01T02:00:00Z");
        Instant before = Instant.parse("2026-01-01T03:00:00Z");
        Map<String, SqlPart> queries = new java.util.LinkedHashMap<>();
        queries.put("payments", payments.listQuery("bulk1", PaymentFilter.NONE, null, 20));
        queries.put("payments after a cursor", payments.listQuery("bulk1", PaymentFilter.NONE, cursor, 100));
        queries.put("payments by status", payments.listQuery("bulk1",
                new PaymentFilter(null, PaymentStatus.FAILED, null, null), null, 20));
        queries.put("payments by status after a cursor", payments.listQuery("bulk1",
                new PaymentFilter(null, PaymentStatus.COMPLETED, null, null), cursor, 20));
        queries.put("payments by booking", payments.listQuery("bulk1",
                new PaymentFilter("bk_bulk501", null, null, null), null, 20));
        queries.put("payments created in a range", payments.listQuery("bulk1",
                new PaymentFilter(null, null, after, before), null, 20));
        queries.put("payments by status created in a range", payments.listQuery("bulk1",
                new PaymentFilter(null, PaymentStatus.PENDING, after, before), null, 20));
        queries.put("events", events.listQuery("bulk1", null, null, null, null, 20));
        queries.put("events after a cursor", events.listQuery("bulk1", null, null, null, 50_000L, 100));
        queries.put("events by payment", events.listQuery("bulk1", "pay_bulk0000501", null, null, null, 20));
        queries.put("events by booking", events.listQuery("bulk1", null, "bk_bulk501", null, null, 20));
        queries.put("events by type after a cursor", events.listQuery("bulk1", null, null, EventType.PAYMENT_FAILED,
                50_000L, 20));

        queries.forEach((name, query) -> {
            String plan = String.join("\n", db.sql("explain " + query.sql()).bindValues(query.values())
                    .map(row -> row.get(0, String.class)).all().collectList().block(WAIT));
            System.out.println("EXPLAIN " + name + ":\n" + plan);
            String table = name.startsWith("payments") ? "payments" : "events";
            assertThat(plan).as(name).doesNotContain("Seq Scan on " + table)
                    .containsPattern("Index (Only )?Scan( Backward)? using \\w+ on " + table + " ");
            // the list's order comes from the index: no sort of the big table (sub-plans sort a payment's history)
            assertThat(plan.split("SubPlan")[0]).as(name).doesNotContain("Sort");
        });
    }

    @Test
    void aWalkVisitsEveryPreExistingPaymentOnceWhilePaymentsAreInserted() {
        String merchant = "pager";
        List<String> existing = new ArrayList<>();
        for (int i = 0; i < 230; i++) {
            // 23 distinct creation times: ten payments share each, so the id decides their order
            String id = insertPayment(merchant, BASE.plusSeconds(i % 23), "FAILED");
            existing.add(id);
        }
        List<String> expectedOrder = db.sql("select id from payments where merchant_id = 'pager' and id = any($1)"
                        + " order by created_at desc, id desc")
                .bind(0, existing.toArray(new String[0]))
                .map(row -> row.get(0, String.class)).all().collectList().block(WAIT);

        AtomicInteger inserted = new AtomicInteger();
        AtomicBoolean inserting = new AtomicBoolean(true);
        // 80 inserts, one every 10 ms, while the walk goes on: some newer than everything, some among the existing
        // creation times (ahead of or behind the walk's position).
        Disposable inserter = Flux.range(0, 80).delayElements(Duration.ofMillis(10))
                .concatMap(i -> insertPaymentAsync(merchant, i % 2 == 0 ? Instant.now()
                        : BASE.plusSeconds(ThreadLocalRandom.current().nextInt(23)), "FAILED"))
                .doOnNext(id -> inserted.incrementAndGet())
                .doFinally(signal -> inserting.set(false))
                .subscribe();
        List<String> seen = new ArrayList<>();
        try {
            String startingAfter = null;
            boolean hasMore = true;
            while (hasMore) {
                int before = inserted.get();
                // at least one insert between two pages, as long as the inserter runs
                await().atMost(WAIT).until(() -> inserted.get() > before || !inserting.get());
                Map<?, ?> page = page("sk_test_pager", "/v1/payments?limit=9"
                        + (startingAfter == null ? "" : "&starting_after=" + startingAfter));
                List<?> data = (List<?>) page.get("data");
                assertThat(data).hasSizeLessThanOrEqualTo(9);
                data.forEach(item -> seen.add((String) ((Map<?, ?>) item).get("id")));
                hasMore = (Boolean) page.get("has_more");
                if (hasMore) {
                    assertThat(data).hasSize(9);
                }
                startingAfter = seen.get(seen.size() - 1);
            }
        } finally {
            inserter.dispose();
        }
        assertThat(inserted.get()).isGreaterThan(25);
        assertThat(new HashSet<>(seen)).as("no item twice").hasSameSizeAs(seen);
        assertThat(seen).containsAll(existing);
        assertThat(seen.stream().filter(new HashSet<>(existing)::contains).toList()).isEqualTo(expectedOrder);
    }

    @Test
    void aWalkVisitsEveryPreExistingEventOnceWhileEventsAreAppended() {
        String merchant = "pager";
        List<String> existing = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            existing.add(insertEvent(merchant).block(WAIT));
        }
        AtomicInteger inserted = new AtomicInteger();
        AtomicBoolean inserting = new AtomicBoolean(true);
        Disposable inserter = Flux.range(0, 60).delayElements(Duration.ofMillis(10))
                .concatMap(i -> insertEvent(merchant))
                .doOnNext(id -> inserted.incrementAndGet())
                .doFinally(signal -> inserting.set(false))
                .subscribe();
        List<String> seen = new ArrayList<>();
        try {
            String startingAfter = null;
            boolean hasMore = true;
            while (hasMore) {
                int before = inserted.get();
                await().atMost(WAIT).until(() -> inserted.get() > before || !inserting.get());
                Map<?, ?> page = page("sk_test_pager", "/v1/events?limit=7"
                        + (startingAfter == null ? "" : "&starting_after=" + startingAfter));
                List<?> data = (List<?>) page.get("data");
                data.forEach(item -> seen.add((String) ((Map<?, ?>) item).get("id")));
                hasMore = (Boolean) page.get("has_more");
                startingAfter = seen.get(seen.size() - 1);
            }
        } finally {
            inserter.dispose();
        }
        assertThat(inserted.get()).isGreaterThan(20);
        assertThat(new HashSet<>(seen)).as("no event twice").hasSameSizeAs(seen);
        assertThat(seen.stream().filter(new HashSet<>(existing)::contains).toList()).isEqualTo(existing);
    }

    @Test
    void filtersDefaultsAndCursorRules() {
        String merchant = "filters";
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            all.add(0, insertPayment(merchant, BASE.plusSeconds(i * 60L), i % 2 == 0 ? "FAILED" : "COMPLETED"));
        }
        Map<?, ?> first = page("sk_test_filters", "/v1/payments");
        assertThat(ids(first)).isEqualTo(all.subList(0, 20)); // default limit 20, newest first
        assertThat(first.get("has_more")).isEqualTo(true);
        Map<?, ?> second = page("sk_test_filters", "/v1/payments?starting_after=" + all.get(19));
        assertThat(ids(second)).isEqualTo(all.subList(20, 25));
        assertThat(second.get("has_more")).isEqualTo(false);
        assertThat(ids(page("sk_test_filters", "/v1/payments?limit=100"))).isEqualTo(all);

        List<?> completed = (List<?>) page("sk_test_filters", "/v1/payments?status=COMPLETED&limit=100").get("data");
        assertThat(completed).hasSize(12)
                .allSatisfy(p -> assertThat(((Map<?, ?>) p).get("status")).isEqualTo("COMPLETED"));

        // strictly after minute 3 and strictly before minute 7: minutes 4, 5, 6
        Map<?, ?> range = page("sk_test_filters", "/v1/payments?createdAfter=2026-06-01T00:03:00Z"
                + "&createdBefore=2026-06-01T09:07:00%2B09:00");
        assertThat(ids(range)).isEqualTo(all.subList(18, 21));

        String booking = (String) ((Map<?, ?>) ((List<?>) first.get("data")).get(0)).get("bookingId");
        assertThat(ids(page("sk_test_filters", "/v1/payments?bookingId=" + booking))).containsExactly(all.get(0));

        // a cursor outside the list: another merchant's payment, or one the booking filter excludes
        String othersPayment = insertPayment("pager", BASE, "FAILED");
        problem("sk_test_filters", "/v1/payments?starting_after=" + othersPayment);
        problem("sk_test_filters", "/v1/payments?bookingId=" + booking + "&starting_after=" + all.get(3));
        problem("sk_test_filters", "/v1/payments?createdAfter=2026-06-01T00:03:00Z&starting_after=" + all.get(24));

        String event = insertEvent(merchant).block(WAIT);
        String pagerEvent = insertEvent("pager").block(WAIT);
        Map<?, ?> eventPage = page("sk_test_filters", "/v1/events?type=payment.created");
        assertThat(ids(eventPage)).contains(event).doesNotContain(pagerEvent);
        assertThat(eventPage.get("has_more")).isEqualTo(false);
        problem("sk_test_filters", "/v1/events?starting_after=" + pagerEvent);
        problem("sk_test_filters", "/v1/events?type=payment.failed&starting_after=" + event);
    }

    private static List<String> ids(Map<?, ?> page) {
        return ((List<?>) page.get("data")).stream().map(item -> (String) ((Map<?, ?>) item).get("id")).toList();
    }

    private Map<?, ?> page(String apiKey, String uri) {
        // an already encoded URI (%2B in an offset), not a template
        return client.get().uri(java.net.URI.create("http://localhost:" + port + uri))
                .header("Authorization", "Bearer " + apiKey).exchange()
                .expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    private void problem(String apiKey, String uri) {
        client.get().uri(uri).header("Authorization", "Bearer " + apiKey).exchange()
                .expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.code").isEqualTo("invalid_request")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("starting_after"));
    }

    private String insertPayment(String merchant, Instant createdAt, String status) {
        return insertPaymentAsync(merchant, createdAt, status).block(WAIT);
    }

    private Mono<String> insertPaymentAsync(String merchant, Instant createdAt, String status) {
        String id = "pay_" + unique("list").substring(5);
        return db.sql("""
                        with p as (
                            insert into payments (id, merchant_id, booking_id, amount, currency, payment_method, status,
                                attempt, version, created_at, updated_at)
                            values ($1, $2, $3, 1000, 'JPY', 'pm_card_ok', $4, 1, 1, $5, $5) returning id)
                        insert into payment_attempts (payment_id, number, connector, status, created_at)
                        select id, 1, 'sandbox', $6, $5 from p""")
                .bind(0, id).bind(1, merchant).bind(2, unique("bk")).bind(3, status).bind(4, createdAt)
                .bind(5, status.equals("COMPLETED") ? "SUCCEEDED" : status)
                .then().thenReturn(id);
    }

    private Mono<String> insertEvent(String merchant) {
        String id = "evt_" + unique("list").substring(5);
        return db.sql("""
                        insert into events (id, merchant_id, type, booking_id, data, created_at, dispatched_at)
                        values ($1, $2, 'payment.created', $3, '{}', now(), now())""")
                .bind(0, id).bind(1, merchant).bind(2, unique("bk"))
                .then().thenReturn(id);
    }

    private void exec(String sql) {
        db.sql(sql).then().block(Duration.ofMinutes(2));
    }
}
