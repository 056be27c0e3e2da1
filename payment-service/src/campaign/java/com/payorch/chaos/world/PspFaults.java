package com.payorch.chaos.world;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The PSPs' own misbehaviour, switched on by the nemesis and carried out where the PSP speaks: on the links (keys
 * forgotten, {@link IdempotencyKeyMemory}) and by the campaign's gateways, which send what the PSPs say (the
 * workload's {@code Gateways}):
 * <ul>
 *   <li>an outage: the PSP's webhooks are held back (with its answers lost on every instance's link, a PSP that the
 *       service cannot hear from at all);</li>
 *   <li>late successes: an attempt the service gave up on ({@code gateway_unreachable}) is charged after all, by a
 *       request that reached the PSP late (its success webhook follows);</li>
 *   <li>reversed refunds: a refund that succeeded is reported failed afterwards (Stripe {@code refund.failed},
 *       Adyen {@code REFUND_FAILED});</li>
 *   <li>forgotten keys: the PSP no longer honours keys older than its lifetime.</li>
 * </ul>
 * What the gateways did is {@link #note noted}, for the nemesis's heal entry. The disputes the PSPs report (no fault:
 * card holders dispute charges) are kept here too, {@link #disputes}, as the one ledger the gateways and the checker
 * share.
 */
public final class PspFaults {

    /** Makes a charge at a PSP fake for an attempt, as the service's request would have: answers its reference. */
    public interface LateCharger {
        String charge(String connector, String paymentId, int attempt, long amount, String currency);
    }

    private final Set<String> outages = ConcurrentHashMap.newKeySet();
    private final Set<String> lateSuccesses = ConcurrentHashMap.newKeySet();
    private final AtomicInteger reversalsWanted = new AtomicInteger();
    private final List<String> notes = new ArrayList<>();
    private final PspDisputes disputes = new PspDisputes();
    private final IdempotencyKeyMemory stripeKeys;
    private final LateCharger charger;

    public PspFaults(IdempotencyKeyMemory stripeKeys, LateCharger charger) {
        this.stripeKeys = stripeKeys;
        this.charger = charger;
    }

    /** No PSP fault ever: for a workload without a nemesis. */
    public static PspFaults none() {
        return new PspFaults(new IdempotencyKeyMemory(Duration.ofDays(365)), (connector, paymentId, attempt, amount,
                currency) -> {
            throw new IllegalStateException("no late charges without a world");
        });
    }

    public void outage(String connector, boolean on) {
        if (on) {
            outages.add(connector);
        } else {
            outages.remove(connector);
        }
    }

    public boolean webhooksHeld(String connector) {
        return outages.contains(connector);
    }

    public void lateSuccesses(String connector, boolean on) {
        if (on) {
            lateSuccesses.add(connector);
        } else {
            lateSuccesses.remove(connector);
        }
    }

    public boolean chargesLate(String connector) {
        return lateSuccesses.contains(connector);
    }

    public String chargeLate(String connector, String paymentId, int attempt, long amount, String currency) {
        return charger.charge(connector, paymentId, attempt, amount, currency);
    }

    public void wantReversals(int count) {
        reversalsWanted.addAndGet(count);
    }

    /** Takes one wanted reversal, if any is left. */
    public boolean takeReversal() {
        return reversalsWanted.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    public int reversalsWanted() {
        return reversalsWanted.get();
    }

    /** Wanted reversals no refund was found for, dropped (when the world heals for good). */
    public int dropReversals() {
        return reversalsWanted.getAndSet(0);
    }

    public PspDisputes disputes() {
        return disputes;
    }

    public IdempotencyKeyMemory stripeKeys() {
        return stripeKeys;
    }

    /** What the gateways did for a fault ("late success stripe pay_…#1 pi_…"). */
    public void note(String what) {
        synchronized (notes) {
            notes.add(what);
        }
    }

    /** The notes from {@code from} on (from {@link #noteCount()} taken at the fault's start). */
    public List<String> notesSince(int from) {
        synchronized (notes) {
            return List.copyOf(notes.subList(Math.min(from, notes.size()), notes.size()));
        }
    }

    public int noteCount() {
        synchronized (notes) {
            return notes.size();
        }
    }
}
