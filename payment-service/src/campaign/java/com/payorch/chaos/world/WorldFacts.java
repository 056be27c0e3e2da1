package com.payorch.chaos.world;

import com.icegreen.greenmail.util.GreenMailUtil;
import com.payorch.chaos.CampaignFacts;
import com.payorch.chaos.history.HistoryEntry;
import jakarta.mail.Address;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link CampaignFacts} over the world's processes: the database directly (not through a link), the instances'
 * URLs, the fakes' ledgers (with what the history's Adyen notifications said), GreenMail's messages, the receiver's deliveries and, with Kafka, the whole topic read from
 * its beginning. {@link PspCharge#reference()} is what the service sent as the charge's reference: the payment id
 * (Stripe {@code metadata[payment_id]}, Adyen {@code reference}); the attempt is in the idempotency key (the payment
 * id for attempt 1, {@code <payment id>-attempt-<n>} after).
 */
public final class WorldFacts implements CampaignFacts {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final World world;
    private final List<HistoryEntry> history;

    WorldFacts(World world, List<HistoryEntry> history) {
        this.world = world;
        this.history = List.copyOf(history);
    }

    @Override
    public Database database() {
        return new Database(world.postgres().jdbcUrl(), "postgres", "", "public");
    }

    @Override
    public List<String> instanceBaseUrls() {
        return world.instanceBaseUrls();
    }

    @Override
    public List<PspDispute> pspDisputes() {
        return world.pspFaults().disputes().all();
    }

    /**
     * Stripe: every PaymentIntent that took money or is processing (a declined one holds none), {@code succeeded}
     * when its status is {@code succeeded}. Adyen: every payment it processed, {@code succeeded} when
     * {@code Authorised}, or {@code Received} and an AUTHORISATION notification with {@code success=true} for it
     * was sent (the history's Adyen webhooks); a refund whose REFUND notification said {@code success=false} is
     * {@code refused}. Currencies upper case.
     */
    @Override
    public List<PspCharge> pspCharges() {
        List<PspCharge> charges = new ArrayList<>();
        Set<String> reversedStripeRefunds = reversedStripeRefunds();
        for (String id : world.stripe().chargedIntents()) {
            Map<String, Object> intent = world.stripe().intent(id);
            Map<?, ?> metadata = (Map<?, ?>) intent.getOrDefault("metadata", Map.of());
            List<PspRefund> refunds = world.stripe().refundsOf(id).stream()
                    .map(r -> new PspRefund((String) r.get("id"), ((Number) r.get("amount")).longValue(),
                            reversedStripeRefunds.contains((String) r.get("id")) ? "reversed"
                                    : String.valueOf(r.get("status"))))
                    .toList();
            charges.add(new PspCharge("stripe", id, world.stripe().idempotencyKeyOf(id),
                    (String) metadata.get("payment_id"), ((Number) intent.get("amount")).longValue(),
                    String.valueOf(intent.get("currency")).toUpperCase(Locale.ROOT),
                    "succeeded".equals(intent.get("status")), refunds));
        }
        Set<String> succeededLater = new HashSet<>();
        Set<String> refusedRefunds = new HashSet<>();
        adyenNotifications(succeededLater, refusedRefunds);
        for (Map<String, Object> payment : world.adyen().payments()) {
            String psp = (String) payment.get("pspReference");
            Map<?, ?> amount = (Map<?, ?>) payment.get("amount");
            String resultCode = String.valueOf(payment.get("resultCode"));
            List<PspRefund> refunds = world.adyen().givenBack(psp).stream()
                    .map(r -> new PspRefund((String) r.get("pspReference"),
                            ((Number) ((Map<?, ?>) r.get("amount")).get("value")).longValue(),
                            refusedRefunds.contains((String) r.get("pspReference")) ? "refused"
                                    : String.valueOf(r.get("status"))))
                    .toList();
            charges.add(new PspCharge("adyen", psp, (String) payment.get("idempotencyKey"),
                    (String) payment.get("reference"), ((Number) amount.get("value")).longValue(),
                    String.valueOf(amount.get("currency")).toUpperCase(Locale.ROOT),
                    resultCode.equals("Authorised") || (resultCode.equals("Received") && succeededLater.contains(psp)),
                    refunds));
        }
        return charges;
    }

    /** From the Adyen notifications the clients sent: authorisations that succeeded, refunds that failed. */
    private void adyenNotifications(Set<String> succeededLater, Set<String> refusedRefunds) {
        for (HistoryEntry entry : history) {
            if (entry.kind() != HistoryEntry.Kind.INVOKE || entry.path() == null
                    || !entry.path().startsWith("/v1/webhooks/adyen") || entry.requestBody() == null) {
                continue;
            }
            try {
                for (JsonNode container : JSON.readTree(entry.requestBody()).path("notificationItems")) {
                    JsonNode item = container.path("NotificationRequestItem");
                    boolean success = "true".equals(item.path("success").asString());
                    String code = item.path("eventCode").asString();
                    if (code.equals("AUTHORISATION") && success) {
                        succeededLater.add(item.path("pspReference").asString());
                    } else if ((code.equals("REFUND") && !success) || code.equals("REFUND_FAILED")
                            || code.equals("REFUNDED_REVERSED")) {
                        refusedRefunds.add(item.path("pspReference").asString());
                    }
                }
            } catch (RuntimeException notJson) {
                // a hostile or truncated body: not a notification Adyen sent
            }
        }
    }

    /**
     * Stripe refunds the gateways reported failed after they succeeded ({@code refund.failed}, or
     * {@code refund.updated} with status {@code failed}): the fake's ledger still shows them succeeded.
     */
    private Set<String> reversedStripeRefunds() {
        Set<String> reversed = new HashSet<>();
        for (HistoryEntry entry : history) {
            if (entry.kind() != HistoryEntry.Kind.INVOKE || entry.path() == null
                    || !entry.path().startsWith("/v1/webhooks/stripe") || entry.requestBody() == null
                    || !entry.requestBody().contains("refund.")) {
                continue;
            }
            try {
                JsonNode event = JSON.readTree(entry.requestBody());
                JsonNode refund = event.path("data").path("object");
                String type = event.path("type").asString("");
                if (type.equals("refund.failed")
                        || (type.equals("refund.updated") && refund.path("status").asString("").equals("failed"))) {
                    reversed.add(refund.path("id").asString(""));
                }
            } catch (RuntimeException notJson) {
                // a hostile or truncated body: not an event Stripe sent
            }
        }
        return reversed;
    }

    @Override
    public List<ReceivedMail> mails() {
        List<ReceivedMail> mails = new ArrayList<>();
        for (MimeMessage message : world.mail().getReceivedMessages()) {
            try {
                Address[] recipients = message.getAllRecipients();
                List<String> to = recipients == null ? List.of()
                        : Arrays.stream(recipients).map(Address::toString).toList();
                mails.add(new ReceivedMail(to, message.getSubject(), GreenMailUtil.getBody(message),
                        message.getMessageID()));
            } catch (MessagingException e) {
                throw new IllegalStateException(e);
            }
        }
        return mails;
    }

    @Override
    public List<ReceivedDelivery> merchantDeliveries() {
        return world.receiver().deliveries();
    }

    @Override
    public Optional<List<StreamRecord>> kafkaRecords() {
        if (world.kafka() == null) {
            return Optional.empty();
        }
        Map<String, Object> props = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, world.kafka().getBrokersAsString(),
                ConsumerConfig.GROUP_ID_CONFIG, "chaos-facts-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<StreamRecord> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(World.KAFKA_TOPIC, Duration.ofSeconds(30))
                    .stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    Header header = record.headers().lastHeader("event-id");
                    records.add(new StreamRecord(record.key(),
                            header == null ? null : new String(header.value(), StandardCharsets.UTF_8),
                            record.partition(), record.offset(), record.value()));
                }
            }
        }
        return Optional.of(records);
    }
}
