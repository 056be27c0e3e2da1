package com.payorch.chaos.world;

import com.payorch.chaos.CampaignFacts.PspDispute;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The PSPs' record of the disputes they reported: written by the campaign's gateways as they report each step (a
 * dispute opened, won, lost, reversed) and as the service acknowledges each report, read by the checker
 * ({@link com.payorch.chaos.CampaignFacts#pspDisputes}). Thread-safe.
 */
public final class PspDisputes {

    private static final class Entry {
        final String connector;
        final String reference;
        final String paymentId;
        final long amount;
        final List<String> statuses = new ArrayList<>();
        final Set<String> unacknowledged = new LinkedHashSet<>();

        Entry(String connector, String reference, String paymentId, long amount) {
            this.connector = connector;
            this.reference = reference;
            this.paymentId = paymentId;
            this.amount = amount;
        }
    }

    private final Map<String, Entry> byReference = new LinkedHashMap<>();
    private final Map<String, Entry> byMessage = new LinkedHashMap<>();

    /** The PSP reported the dispute's new {@code status} in the messages {@code messageKeys} (queued, not yet sent). */
    public synchronized void reported(String connector, String reference, String paymentId, long amount,
                                      String status, List<String> messageKeys) {
        Entry entry = byReference.computeIfAbsent(connector + ":" + reference,
                k -> new Entry(connector, reference, paymentId, amount));
        entry.statuses.add(status);
        entry.unacknowledged.addAll(messageKeys);
        messageKeys.forEach(key -> byMessage.put(key, entry));
    }

    /** The service acknowledged the message {@code messageKey} (any message: ones of no dispute are ignored). */
    public synchronized void acknowledged(String messageKey) {
        Entry entry = byMessage.remove(messageKey);
        if (entry != null) {
            entry.unacknowledged.remove(messageKey);
        }
    }

    /** Whether every report of the dispute was acknowledged. */
    public synchronized boolean acknowledged(String connector, String reference) {
        Entry entry = byReference.get(connector + ":" + reference);
        return entry != null && entry.unacknowledged.isEmpty();
    }

    public synchronized List<PspDispute> all() {
        return byReference.values().stream().map(e -> new PspDispute(e.connector, e.reference, e.paymentId, e.amount,
                List.copyOf(e.statuses), e.unacknowledged.isEmpty())).toList();
    }
}
