package com.payorch.chaos.nemesis;

/** The faults the nemesis injects; {@link #id()} is the NEMESIS entry's {@code operation}. */
public enum Fault {
    /** {@code kill -9} of an instance; healed by starting it again on its port. */
    KILL_INSTANCE("kill-instance", 2),
    /** {@code pg_terminate_backend} of 1–4 random service backends (a direct connection, no proxy); at once. */
    TERMINATE_BACKENDS("terminate-backends", 2),
    /** {@code pg_ctl stop -m immediate} (a crash: WAL replay on the next start); healed by starting it again. */
    DB_RESTART("db-immediate-restart", 1),
    /** No byte moves on an instance's database or gateway link; healed: they flow again. */
    FREEZE_LINK("freeze-link", 2),
    /** Every chunk on the link arrives 0.2–1.7 s late. */
    DELAY_LINK("delay-link", 2),
    /** Every open connection of the link is closed abruptly (RST both ways); at once. */
    RESET_LINK("reset-link", 2),
    /** On a gateway link: requests reach the PSP (it charges), the answers are dropped and the connection reset. */
    ANSWERS_LOST("answers-lost", 3),
    /** The SMTP link of an instance frozen: the mail server stalls mid-conversation. */
    SMTP_STALL("smtp-stall", 1),
    /** The merchants' webhook receiver answers 503 to every delivery. */
    RECEIVER_DOWN("receiver-down", 1),
    /**
     * A PSP outage longer than the instances' {@code give-up-after}: every instance's link to the PSP loses its
     * answers (the PSP charges, nobody hears) and the PSP's webhooks are held back, until healed.
     */
    ANSWERS_LOST_PAST_GIVE_UP("answers-lost-past-give-up", 1),
    /** The PSP charges, after all, attempts the service gave up on ({@code gateway_unreachable}): late successes. */
    LATE_SUCCESS_AFTER_GIVE_UP("late-success-after-give-up", 1),
    /** The PSP (Stripe) forgets idempotency keys older than its lifetime: a resend past it charges again. */
    PSP_FORGETS_KEYS("psp-forgets-keys", 1),
    /** Refunds that succeeded are reported failed afterwards (Stripe {@code refund.failed}, Adyen REFUND_FAILED). */
    REFUND_REVERSED("refund-reversed", 1),
    /**
     * {@code kill -9} of the primary PostgreSQL's postmaster and {@code pg_ctl promote} of its synchronous standby;
     * healed by making the old primary the new one's synchronous standby. Never drawn at random (weight 0): planned
     * at fixed points when the campaign runs a primary and a standby ({@link Nemesis#plan(long, java.time.Duration,
     * java.util.List, int)}).
     */
    PRIMARY_FAILOVER("primary-failover", 0);

    private final String id;
    private final int weight;

    Fault(String id, int weight) {
        this.id = id;
        this.weight = weight;
    }

    public String id() {
        return id;
    }

    int weight() {
        return weight;
    }

    /** Faults that end as soon as they are done (their heal is recorded right after the start). */
    boolean instantaneous() {
        return this == TERMINATE_BACKENDS || this == RESET_LINK;
    }
}
