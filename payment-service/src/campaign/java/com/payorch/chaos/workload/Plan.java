package com.payorch.chaos.workload;

import java.util.List;
import java.util.Random;

/**
 * A client's planned operations: drawn from the campaign seed and the client's number only, never from what the
 * service answered, so one seed always plans the same sequence. What a step then acts on (which FAILED payment is
 * retried, which COMPLETED one refunded, which webhook redelivered) is picked at run time from what the client
 * knows, with the step's {@link Step#pick}.
 */
final class Plan {

    /** What a step does. */
    enum Kind {
        /** POST /v1/payments with a fresh key (variants: single, double click, resent to another instance). */
        CREATE,
        /** The exact request of an acknowledged create, retry or refund, sent again (any instance). */
        REPLAY,
        /** An acknowledged create's key with another body: must be 422 {@code idempotency_key_reused}. */
        MISMATCH,
        /** POST /v1/payments/{id}/retry of a FAILED payment. */
        RETRY,
        /** POST /v1/payments/{id}/refunds of a COMPLETED payment (full, partial, racing, exceeding). */
        REFUND,
        /** A GET: payment, list by booking, booking, events, refunds, sandbox charges, another merchant's payment. */
        READ,
        /** A gateway webhook the fakes (or the sandbox) sent before, delivered again: duplicated, reordered, late. */
        WEBHOOK,
        /** POST /v1/payments/{id}/capture or /cancel of a hold (full, partial, cancel, a capture racing a cancel). */
        HOLD
    }

    /** Weights of the kinds, in {@link Kind} order (sum 100). */
    private static final int[] WEIGHTS = {30, 5, 2, 8, 15, 14, 18, 8};

    static final int HOLD_CAPTURE_ALL = 0;
    static final int HOLD_CAPTURE_PART = 1;
    static final int HOLD_CANCEL = 2;
    static final int HOLD_RACE = 3;

    /** Of the sandbox merchant's creates, the share (percent, by {@link Step#share}) that place a hold. */
    static final int MANUAL_SHARE = 40;

    static final int CREATE_SINGLE = 0;
    static final int CREATE_DOUBLE_CLICK = 1;
    static final int CREATE_OTHER_INSTANCE = 2;

    static final int REFUND_FULL = 0;
    static final int REFUND_PARTIAL = 1;
    static final int REFUND_RACE = 2;
    static final int REFUND_EXCEED = 3;

    static final int RETRY_PLAIN = 0;
    static final int RETRY_IF_MATCH = 1;
    static final int RETRY_STALE_IF_MATCH = 2;
    static final int RETRY_DOUBLE_CLICK = 3;

    static final int WEBHOOK_REDELIVER = 0;
    static final int WEBHOOK_CONCURRENT = 1;
    static final int WEBHOOK_REORDERED = 2;
    static final int WEBHOOK_LATE = 3;

    /** Bookings per merchant that every client draws from, so that creates collide on them. */
    static final int HOT_BOOKINGS = 8;

    /**
     * One planned operation.
     *
     * @param index the step's number in its client's plan, from 0
     * @param kind what it does
     * @param variant which form of it (the constants above; reads: 0..6)
     * @param merchant index into the merchants (modulo their number)
     * @param hotBooking index of a shared booking, or -1 for a booking of this step's own
     * @param amount the amount of a create (minor units)
     * @param currency the currency of a create
     * @param tokenRoll 0..99: which payment method the merchant's connector is given
     * @param withEmail whether a create names a customer e-mail
     * @param instances three instance indexes (0..2) for the step's requests, in order
     * @param copies how many requests a concurrent variant sends at once (2..4)
     * @param share 1..99: a refund's share of the refundable amount, in percent
     * @param delayMillis how long a late webhook or a resend waits
     * @param pick picks what the step acts on among what the client knows
     * @param thinkMillis the client's pause after the step
     */
    record Step(int index, Kind kind, int variant, int merchant, int hotBooking, long amount, String currency,
                int tokenRoll, boolean withEmail, List<Integer> instances, int copies, int share, int delayMillis,
                long pick, int thinkMillis) {
    }

    private static final List<String> CURRENCIES = List.of("USD", "EUR", "JPY", "GBP");

    private final Random random;
    private int next;

    Plan(long seed, int client) {
        this.random = new Random(seed * 1_000_003L + client * 7_919L);
    }

    Step next() {
        Kind kind = kind(random.nextInt(100));
        int variant = switch (kind) {
            case CREATE -> weighted(new int[]{60, 25, 15});
            case REFUND -> weighted(new int[]{20, 35, 30, 15});
            case RETRY -> weighted(new int[]{40, 25, 15, 20});
            case WEBHOOK -> weighted(new int[]{35, 30, 20, 15});
            case READ -> random.nextInt(7);
            case REPLAY -> random.nextInt(5); // 0: the key quoted ("…"), as the IETF draft allows
            case MISMATCH -> 0;
            case HOLD -> weighted(new int[]{35, 25, 25, 15});
        };
        int merchant = random.nextInt(1_000);
        int hotBooking = random.nextInt(100) < 30 ? random.nextInt(HOT_BOOKINGS) : -1;
        String currency = CURRENCIES.get(random.nextInt(CURRENCIES.size()));
        long amount = 100 + random.nextInt(49_900);
        int tokenRoll = random.nextInt(100);
        boolean withEmail = random.nextBoolean();
        List<Integer> instances = List.of(random.nextInt(3), random.nextInt(3), random.nextInt(3));
        int copies = 2 + random.nextInt(3);
        int share = 1 + random.nextInt(99);
        int delayMillis = 100 + random.nextInt(1_400);
        long pick = random.nextLong();
        int thinkMillis = random.nextInt(60);
        return new Step(next++, kind, variant, merchant, hotBooking, amount, currency, tokenRoll, withEmail,
                instances, copies, share, delayMillis, pick, thinkMillis);
    }

    private Kind kind(int roll) {
        int sum = 0;
        for (int i = 0; i < WEIGHTS.length; i++) {
            sum += WEIGHTS[i];
            if (roll < sum) {
                return Kind.values()[i];
            }
        }
        throw new IllegalStateException("weights do not sum to 100");
    }

    private int weighted(int[] weights) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        int roll = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            roll -= weights[i];
            if (roll < 0) {
                return i;
            }
        }
        throw new IllegalStateException();
    }
}
