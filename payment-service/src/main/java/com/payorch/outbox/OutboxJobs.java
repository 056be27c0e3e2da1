package com.payorch.outbox;

import com.payorch.jobs.PeriodicJob;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The outbox's background jobs, each on its own {@link PeriodicJob} loop; both start at once. The relay is also woken
 * by the `outbox` notification of a new event (`V13__wake_up_notifications.sql`).
 */
@Configuration(proxyBeanMethods = false)
class OutboxJobs {

    @Bean
    PeriodicJob outboxRelayJob(OutboxRelay relay, OutboxProperties properties) {
        return new PeriodicJob("outbox-relay", Duration.ZERO, properties.pollInterval(), relay::relayDueEvents)
                .wakesOn("outbox", Duration.ZERO);
    }

    @Bean
    PeriodicJob outboxBacklogJob(OutboxMetrics metrics, OutboxProperties properties) {
        return new PeriodicJob("outbox-backlog", Duration.ZERO, properties.backlogRefresh(), metrics::refreshBacklog);
    }
}
