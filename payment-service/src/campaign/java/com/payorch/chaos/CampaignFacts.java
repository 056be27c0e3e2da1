package com.payorch.chaos;

import java.util.List;
import java.util.Optional;

/**
 * What the checker may look at after a campaign, besides the history: the database, the running instances (for
 * replays), and what the outside world received (the PSP fakes' ledgers, the SMTP server, the merchant's webhook
 * receiver, the Kafka topic). The campaign implements it over the processes it started.
 */
public interface CampaignFacts {

    Database database();

    /** Base URLs ({@code http://localhost:port}) of the instances, all up when the checker runs. */
    List<String> instanceBaseUrls();

    /** Every charge the Stripe and Adyen fakes made (sandbox charges are in the service's own tables). */
    List<PspCharge> pspCharges();

    /** Every message the SMTP server accepted. */
    List<ReceivedMail> mails();

    /** Every merchant-webhook delivery the receiver got (including ones it answered with an error). */
    List<ReceivedDelivery> merchantDeliveries();

    /** Every record on the events topic, or empty when the campaign ran without Kafka. */
    Optional<List<StreamRecord>> kafkaRecords();

    /**
     * Every dispute the PSPs (the fakes, and the gateways' side for the sandbox) reported to the service, with the
     * statuses in the order the PSP reported them; none when the campaign opens no disputes.
     */
    default List<PspDispute> pspDisputes() {
        return List.of();
    }

    /** JDBC access to the service's schema. */
    record Database(String jdbcUrl, String user, String password, String schema) {
    }

    /**
     * @param connector {@code stripe} or {@code adyen}
     * @param pspReference the PaymentIntent id or Adyen pspReference
     * @param idempotencyKey the idempotency key the service sent with the charge
     * @param reference what the service sent to identify the attempt (Stripe metadata / Adyen reference), as sent
     * @param succeeded whether the PSP reports the charge as captured money
     */
    record PspCharge(String connector, String pspReference, String idempotencyKey, String reference, long amount,
                     String currency, boolean succeeded, List<PspRefund> refunds) {
    }

    record PspRefund(String pspReference, long amount, String status) {
    }

    /**
     * @param connector {@code sandbox}, {@code stripe} or {@code adyen}
     * @param reference the connector's id of the dispute, as the service keys it (Stripe's {@code dp_…}, the sandbox's
     *        {@code disputeId}, Adyen's payment pspReference: its dispute reports name the payment)
     * @param amount the disputed amount (the campaign's currencies have the same minor units at every PSP)
     * @param statuses {@code OPEN}, {@code WON}, {@code LOST}: what each report said, in the PSP's order
     * @param acknowledged whether every report was acknowledged by the service (its last status is then the truth)
     */
    record PspDispute(String connector, String reference, String paymentId, long amount, List<String> statuses,
                      boolean acknowledged) {

        public String finalStatus() {
            return statuses.get(statuses.size() - 1);
        }
    }

    /**
     * @param messageId the message's Message-ID header: a copy handed over twice (SMTP has no idempotency, so a sender
     *        that dies after the server's acceptance and before recording it sends again) carries the same one
     */
    record ReceivedMail(List<String> to, String subject, String body, String messageId) {
    }

    /** @param status the HTTP status the receiver answered with */
    record ReceivedDelivery(long atMillis, int status, String body) {
    }

    record StreamRecord(String key, String eventIdHeader, int partition, long offset, String value) {
    }
}
