package com.payorch.jobs;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.wake-ups.*}: waking idle background jobs when PostgreSQL notifies new work.
 *
 * @param enabled          Whether each instance keeps one LISTEN connection and wakes its idle jobs (outbox relay,
 *                         merchant webhooks, sandbox settlement) on the notifications the database's triggers send;
 *                         without it the jobs find new work at their next poll.
 * @param maxReconnectWait The longest wait between two attempts to open the LISTEN connection again after it was
 *                         lost (the waits double from 100 ms up to this).
 */
@ConfigurationProperties("payments.wake-ups")
public record WakeUpProperties(@DefaultValue("true") boolean enabled,
                               @DefaultValue("PT5S") Duration maxReconnectWait) {
}
