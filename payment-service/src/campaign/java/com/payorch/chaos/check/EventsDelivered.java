package com.payorch.chaos.check;

import com.payorch.chaos.CampaignFacts.ReceivedDelivery;
import com.payorch.chaos.CampaignFacts.StreamRecord;
import com.payorch.chaos.check.Checker.InvariantResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Invariant 9: every event that should reach the merchant was delivered at least once with a 2xx answer, and, when
 * the campaign ran with Kafka, every event is on the topic at least once, in order per payment.
 *
 * <p>Merchant webhooks: an event should go to its merchant when the merchant has a {@code webhook-url}; the checker
 * tells those merchants by their rows in {@code webhook_deliveries} (a merchant without a URL gets no rows, the
 * contract says). Every {@code events} row of such a merchant must appear, by its id ({@code data.id} of the body
 * {@code {"type", "data": <event resource>}}), among the receiver's deliveries
 * ({@link com.payorch.chaos.CampaignFacts#merchantDeliveries}) that it answered 2xx. Kafka (only when
 * {@link com.payorch.chaos.CampaignFacts#kafkaRecords} is present): every event id of every merchant appears at
 * least once (the {@code event-id} header, else the value's {@code id}); no record names an event the database does
 * not hold; per payment (the record key), the records' first occurrences, in (partition, offset) order, follow the
 * events' {@code seq} order. Offending keys: payment ids (booking ids for events without a payment) and event ids.
 */
final class EventsDelivered implements Invariant {

    @Override
    public String name() {
        return "events-delivered";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        Snapshot db = context.db();
        Set<String> merchants = new HashSet<>();
        db.deliveries().forEach(d -> merchants.add(d.merchantId()));
        Set<String> delivered = new HashSet<>();
        int answered2xx = 0;
        for (ReceivedDelivery delivery : context.facts().merchantDeliveries()) {
            if (delivery.status() >= 200 && delivery.status() < 300) {
                answered2xx++;
                String id = Operations.json(delivery.body()).path("data").path("id").asText(null);
                if (id != null) {
                    delivered.add(id);
                }
            }
        }
        Set<String> offending = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        int due = 0;
        for (Snapshot.Event event : db.events()) {
            if (!merchants.contains(event.merchantId())) {
                continue;
            }
            due++;
            if (!delivered.contains(event.id())) {
                problems.add(event.type() + " " + event.id() + " of " + event.paymentId()
                        + " never delivered with a 2xx");
                offending.add(event.paymentId() != null ? event.paymentId() : event.bookingId());
                offending.add(event.id());
            }
        }
        String detail = due + " events of " + merchants.size() + " merchants with a webhook-url, "
                + context.facts().merchantDeliveries().size() + " deliveries received (" + answered2xx + " 2xx)";

        var kafka = context.facts().kafkaRecords();
        if (kafka.isPresent()) {
            List<StreamRecord> records = new ArrayList<>(kafka.get());
            records.sort(Comparator.comparingInt(StreamRecord::partition).thenComparingLong(StreamRecord::offset));
            Map<String, Snapshot.Event> events = new HashMap<>();
            db.events().forEach(e -> events.put(e.id(), e));
            Map<String, List<Snapshot.Event>> firstSeen = new LinkedHashMap<>();
            Set<String> seen = new HashSet<>();
            for (StreamRecord record : records) {
                String id = record.eventIdHeader();
                if (id == null) {
                    JsonNode value = Operations.json(record.value());
                    id = value.path("id").asText(null);
                }
                Snapshot.Event event = id == null ? null : events.get(id);
                if (event == null) {
                    problems.add("Kafka record " + record.partition() + "@" + record.offset() + " names event " + id
                            + ", which the database does not hold");
                    offending.add(record.key() != null ? record.key() : String.valueOf(id));
                    continue;
                }
                if (seen.add(id)) {
                    firstSeen.computeIfAbsent(event.paymentId() == null ? "-" : event.paymentId(),
                            k -> new ArrayList<>()).add(event);
                }
            }
            for (Snapshot.Event event : db.events()) {
                if (!seen.contains(event.id())) {
                    problems.add(event.type() + " " + event.id() + " of " + event.paymentId() + " not on Kafka");
                    offending.add(event.paymentId() != null ? event.paymentId() : event.bookingId());
                    offending.add(event.id());
                }
            }
            firstSeen.forEach((paymentId, list) -> {
                for (int i = 1; i < list.size(); i++) {
                    if (list.get(i).seq() < list.get(i - 1).seq() && !paymentId.equals("-")) {
                        problems.add("Kafka has " + list.get(i).type() + " " + list.get(i).id() + " of " + paymentId
                                + " after the later " + list.get(i - 1).type() + " " + list.get(i - 1).id());
                        offending.add(paymentId);
                        break;
                    }
                }
            });
            detail += "; Kafka: " + records.size() + " records, " + seen.size() + " distinct events of "
                    + db.events().size();
        }
        detail += problems.isEmpty() ? ": all delivered" : "; " + problems.size() + " problems, first: "
                + problems.get(0);
        offending.remove(null);
        return new InvariantResult(name(), problems.isEmpty(), detail, offending);
    }
}
