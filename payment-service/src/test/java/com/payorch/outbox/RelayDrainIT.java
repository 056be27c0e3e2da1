package com.payorch.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.verify;

import com.payorch.jobs.PeriodicJob;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.Mockito;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

/**
 * A backlog drains in one relay run, batch after batch, without waiting poll-interval (an hour here) between full
 * batches; each batch is acknowledged by one statement. The drain time is printed, not asserted.
 */
@OwnSchema("relay_drain_tests")
@TestPropertySource(properties = "payments.outbox.poll-interval=PT1H")
class RelayDrainIT extends ApiTest {

    private static final int BACKLOG = 2_000;

    @MockitoSpyBean
    private OutboxQueue queue;

    @Autowired
    private OutboxRelay relay;

    @Autowired
    private OutboxProperties properties;

    @Autowired
    @Qualifier("outboxRelayJob")
    private PeriodicJob relayJob;

    @Test
    void aBacklogDrainsInOneRunOfFullBatchesEachAcknowledgedByOneStatement() {
        // The job's first run (at start) is over; its next one is an hour away, so only this test's run relays.
        await().atMost(Duration.ofSeconds(30)).until(() -> relayJob.completedRuns() >= 1);
        String prefix = unique("evt_drain");
        // payment.created is consumed (by the merchant webhook planner; demo has no webhook-url, so it does nothing).
        db.sql("""
                        insert into events (id, merchant_id, type, payment_id, booking_id, data, created_at)
                        select $1 || '_' || g, 'demo', 'payment.created', null, null, '{}'::jsonb, now()
                        from generate_series(1, $2) g""")
                .bind(0, prefix).bind(1, BACKLOG)
                .then().block(Duration.ofSeconds(30));
        Mockito.clearInvocations(queue);

        long started = System.nanoTime();
        List<Integer> batches = relay.relayRun().block(Duration.ofMinutes(2));
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf("Relay drained %d events in %d batches in %d ms%n", BACKLOG, batches.size(), millis);

        int batchSize = properties.batchSize();
        assertThat(batches).hasSize(BACKLOG / batchSize + 1);
        assertThat(batches.subList(0, BACKLOG / batchSize)).allMatch(size -> size == batchSize);
        assertThat(batches.get(batches.size() - 1)).isZero();
        assertThat(count("select count(*) from events where id like $1 and dispatched_at is null", prefix + "_%"))
                .isZero();
        assertThat(count("select count(*) from events where id like $1 and attempts = 1", prefix + "_%"))
                .isEqualTo(BACKLOG);

        @SuppressWarnings("unchecked")
        ArgumentCaptor<Collection<String>> acknowledged = ArgumentCaptor.forClass(Collection.class);
        verify(queue, atLeastOnce()).markDispatched(acknowledged.capture());
        assertThat(acknowledged.getAllValues()).hasSize(BACKLOG / batchSize)
                .allSatisfy(ids -> assertThat(ids).hasSize(batchSize));
        verify(queue, Mockito.never()).markFailed(Mockito.any(), Mockito.any(), Mockito.any(), Mockito.any(),
                Mockito.anyBoolean());
    }
}
