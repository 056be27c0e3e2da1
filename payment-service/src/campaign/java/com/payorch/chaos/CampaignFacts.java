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
