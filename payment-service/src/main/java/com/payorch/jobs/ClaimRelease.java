package com.payorch.jobs;

import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * On shutdown, gives back the claims this instance still holds, at once: the {@link PeriodicJob}s stop first (their
 * phase is later, so they stop earlier), cancelling any run in progress; then every {@link ClaimedWork} table releases
 * the rows claimed with this instance's tokens. Another instance picks them up at its next poll instead of after
 * the lease (a minute by default). Runs before the web server's graceful shutdown waits for in-flight requests, while
 * the database is still there.
 */
@Component
public class ClaimRelease implements SmartLifecycle {

    /** After the jobs ({@link SmartLifecycle#DEFAULT_PHASE}), before the web server's graceful shutdown (-1024). */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(ClaimRelease.class);

    private final ClaimTokens tokens;
    private final List<ClaimedWork> tables;
    private volatile boolean running;

    ClaimRelease(ClaimTokens tokens, ObjectProvider<ClaimedWork> tables) {
        this.tokens = tokens;
        this.tables = tables.orderedStream().toList();
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        try {
            Flux.fromIterable(tables)
                    .flatMap(table -> table.releaseClaims(tokens.lowest(), tokens.highest())
                            .doOnNext(released -> {
                                if (released > 0) {
                                    log.info("Released {} claimed {} for other instances", released,
                                            table.claimedWhat());
                                }
                            })
                            .onErrorResume(e -> {
                                log.warn("Could not release the claimed {}; they are taken over when their lease"
                                        + " ends: {}", table.claimedWhat(), e.toString());
                                return Mono.empty();
                            }))
                    .then()
                    .block(TIMEOUT);
        } catch (RuntimeException e) {
            log.warn("Releasing claims took longer than {}; the rest are taken over when their lease ends: {}",
                    TIMEOUT, e.toString());
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
