package com.payorch.chaos.check;

import com.payorch.chaos.CampaignFacts.PspDispute;
import com.payorch.chaos.check.Checker.InvariantResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Invariant 13 (disputes, issue 25): one dispute per connector dispute reference, as the PSP reported it, and
 * refunded + disputed <= captured.
 *
 * <ul>
 *   <li>Every dispute the PSPs reported ({@link com.payorch.chaos.CampaignFacts#pspDisputes}, and the sandbox's own
 *       dispute of every {@code pm_card_disputed} charge that succeeded: opened, then lost) is exactly one row
 *       (connector, reference), of the payment the PSP named, with the PSP's amount; its status is the PSP's last one
 *       when every report was acknowledged, else one the PSP reported. No row names a dispute no PSP reported.</li>
 *   <li>Each payment's {@code amount_disputed} is the sum of its OPEN and LOST disputes.</li>
 *   <li>In the order the payment row's lock decided them (the outbox's {@code seq}: refunds and dispute reports each
 *       write their event under that lock), every refund granted against the payment fits:
 *       refunds still counting (created, not failed nor reversed) + disputes holding money (OPEN, LOST) <= the
 *       payment's {@code amount_captured}. A dispute is never refused (the bank took the money already), so only a
 *       refund granted after it is held to what it left.</li>
 * </ul>
 * Offending keys: payment ids.
 */
final class DisputesOncePerReference implements Invariant {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> HOLDING = Set.of("OPEN", "LOST");

    @Override
    public String name() {
        return "disputes-once-within-captured";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        Snapshot db = context.db();
        Set<String> offending = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        Map<String, List<Snapshot.Dispute>> rows = db.disputes().stream()
                .collect(Collectors.groupingBy(d -> d.connector() + ":" + d.connectorReference(), LinkedHashMap::new,
                        Collectors.toList()));
        List<PspDispute> reported = withTheSandboxsOwn(context.facts().pspDisputes(), db.sandboxDisputed());
        Map<String, Integer> finals = new TreeMap<>();
        for (PspDispute psp : reported) {
            List<Snapshot.Dispute> own = rows.getOrDefault(psp.connector() + ":" + psp.reference(), List.of());
            String problem = judge(psp, own);
            if (problem != null) {
                offending.add(psp.paymentId());
                problems.add(psp.connector() + " " + psp.reference() + " of " + psp.paymentId() + ": " + problem);
            }
            finals.merge(psp.finalStatus(), 1, Integer::sum);
        }
        Set<String> known = reported.stream().map(p -> p.connector() + ":" + p.reference())
                .collect(Collectors.toSet());
        rows.forEach((reference, own) -> {
            if (!known.contains(reference)) {
                own.forEach(d -> offending.add(d.paymentId()));
                problems.add(reference + ": a dispute no PSP reported (" + own.size() + " rows)");
            }
        });
        Map<String, Long> holding = db.disputes().stream().filter(d -> HOLDING.contains(d.status()))
                .collect(Collectors.groupingBy(Snapshot.Dispute::paymentId, Collectors.summingLong(
                        Snapshot.Dispute::amount)));
        int refundsAfterADispute = 0;
        Map<String, Snapshot.Refund> refunds = db.refunds().stream()
                .collect(Collectors.toMap(Snapshot.Refund::id, r -> r, (a, b) -> a));
        Map<String, List<Snapshot.Event>> events = db.eventsByPayment();
        for (Snapshot.Payment payment : db.payments()) {
            if (payment.amountDisputed() != holding.getOrDefault(payment.id(), 0L)) {
                offending.add(payment.id());
                problems.add(payment.id() + ": amount_disputed " + payment.amountDisputed() + ", its OPEN and LOST"
                        + " disputes hold " + holding.getOrDefault(payment.id(), 0L));
            }
            int[] after = {0};
            String problem = replay(payment, events.getOrDefault(payment.id(), List.of()), refunds, after);
            refundsAfterADispute += after[0];
            if (problem != null) {
                offending.add(payment.id());
                problems.add(payment.id() + ": " + problem);
            }
        }
        long unacknowledged = reported.stream().filter(p -> !p.acknowledged()).count();
        String detail = reported.size() + " disputes reported by the PSPs " + finals + " (" + unacknowledged
                + " not acknowledged to the end), " + db.disputes().size() + " rows, " + refundsAfterADispute
                + " refunds granted after a dispute"
                + (problems.isEmpty() ? ": one row each, as reported; refunded + disputed <= captured"
                        : "; " + problems.size() + " problems, first: " + problems.get(0));
        return new InvariantResult(name(), problems.isEmpty(), detail, offending);
    }

    /**
     * The sandbox disputes every {@code pm_card_disputed} charge that succeeded itself (its webhooks acknowledged once
     * the charge's are finished), also of payments the gateways never saw completed; the gateways report the same
     * steps under the same webhook ids for the ones they saw.
     */
    static List<PspDispute> withTheSandboxsOwn(List<PspDispute> ledger, List<Snapshot.SandboxDisputed> disputed) {
        Map<String, PspDispute> all = new LinkedHashMap<>();
        ledger.forEach(d -> all.put(d.connector() + ":" + d.reference(), d));
        for (Snapshot.SandboxDisputed charge : disputed) {
            String reference = charge.chargeId() + "-dispute";
            PspDispute gateways = all.get("sandbox:" + reference);
            boolean acknowledged = charge.webhooksFinished() || gateways != null && gateways.acknowledged();
            all.put("sandbox:" + reference, new PspDispute("sandbox", reference, charge.paymentId(), charge.amount(),
                    List.of("OPEN", "LOST"), acknowledged));
        }
        return List.copyOf(all.values());
    }

    private static String judge(PspDispute psp, List<Snapshot.Dispute> own) {
        if (own.size() != 1) {
            return own.size() + " rows";
        }
        Snapshot.Dispute row = own.get(0);
        if (!row.paymentId().equals(psp.paymentId())) {
            return "recorded on " + row.paymentId();
        }
        if (row.amount() != psp.amount()) {
            return "amount " + row.amount() + ", the PSP disputed " + psp.amount();
        }
        if (psp.acknowledged() ? !row.status().equals(psp.finalStatus()) : !psp.statuses().contains(row.status())) {
            return "status " + row.status() + ", the PSP reported " + psp.statuses()
                    + (psp.acknowledged() ? "" : " (not all acknowledged)");
        }
        return null;
    }

    /**
     * Replays the payment's refund and dispute events in outbox order; the first refund granted beyond what was left,
     * or null. {@code after[0]} counts the refunds granted while a dispute held money.
     */
    private static String replay(Snapshot.Payment payment, List<Snapshot.Event> events,
                                 Map<String, Snapshot.Refund> refunds, int[] after) {
        long reserved = 0;
        Map<String, Long> disputeAmounts = new HashMap<>();
        Map<String, String> disputeStatuses = new HashMap<>();
        for (Snapshot.Event event : events) {
            String type = event.type();
            if (!type.startsWith("refund.") && !type.startsWith("dispute.")) {
                continue;
            }
            JsonNode data = JSON.readTree(event.data());
            if (type.startsWith("dispute.")) {
                String id = data.path("id").asString("");
                disputeAmounts.put(id, data.path("amount").asLong());
                disputeStatuses.put(id, switch (type) {
                    case "dispute.won" -> "WON";
                    case "dispute.lost" -> "LOST";
                    default -> disputeStatuses.getOrDefault(id, "OPEN");
                });
                continue;
            }
            Snapshot.Refund refund = refunds.get(data.path("refundId").asString(""));
            if (refund == null || !refund.countsAgainstPayment()) {
                continue;
            }
            long amount = data.path("amount").asLong();
            switch (type) {
                case "refund.created" -> {
                    reserved += amount;
                    long disputed = disputeAmounts.entrySet().stream()
                            .filter(d -> HOLDING.contains(disputeStatuses.get(d.getKey())))
                            .mapToLong(Map.Entry::getValue).sum();
                    after[0] += disputed > 0 ? 1 : 0;
                    if (reserved + disputed > payment.amountCaptured()) {
                        return "refund " + refund.id() + " (event " + event.seq() + ") granted with refunds "
                                + reserved + " + disputed " + disputed + " > captured " + payment.amountCaptured();
                    }
                }
                case "refund.failed", "refund.reversed" -> reserved -= amount;
                default -> {
                }
            }
        }
        return null;
    }
}
