package com.payorch.confirmations;

import com.payorch.events.Event;
import com.payorch.events.EventStore;
import com.payorch.events.EventType;
import com.payorch.outbox.OutboxConsumer;
import com.payorch.payments.PaymentQueries;
import com.payorch.support.Timestamps;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * On `booking.activated`: one confirmation e-mail to the payment's customerEmail (none without one), then, in one
 * transaction, the booking_confirmations row marked sent and the `booking.confirmation_sent` event. Redeliveries
 * find the row sent and do nothing; a racing delivery finds it claimed and fails, to be retried later.
 *
 * <p>Sending and recording are one unit that is not cancelled when the relay stops waiting for the delivery: a slow
 * mail server's late acceptance is still recorded, so the relay's next attempt finds the confirmation sent. Once the
 * mail server has accepted the message, recording it does not give up at the first database error: while the
 * database is unavailable it is retried until 3/4 of `payments.confirmations.claim-timeout` after the claim
 * ({@link RecordingRetry}), before any other delivery may take the row over.
 *
 * <p>The duplicate this cannot prevent: the process dies after the mail server accepted the message and before the
 * row is marked sent, or the database stays away (or the send takes) longer than that bound (keep the claim timeout
 * well above the SMTP time-outs and a database restart). The claim then expires and a redelivery sends again, with
 * the same Message-ID.
 */
@Component
class BookingConfirmationConsumer implements OutboxConsumer {

    private static final Logger log = LoggerFactory.getLogger(BookingConfirmationConsumer.class);

    private final PaymentQueries payments;
    private final BookingConfirmations confirmations;
    private final ConfirmationMailer mailer;
    private final EventStore events;
    private final TransactionalOperator transaction;
    private final ConfirmationProperties properties;
    private final MeterRegistry meters;
    private final Clock clock;
    private final RecordingRetry retry = new RecordingRetry();

    BookingConfirmationConsumer(PaymentQueries payments, BookingConfirmations confirmations, ConfirmationMailer mailer,
                                EventStore events, TransactionalOperator transaction,
                                ConfirmationProperties properties, MeterRegistry meters,
                                Clock clock) {
        this.payments = payments;
        this.confirmations = confirmations;
        this.mailer = mailer;
        this.events = events;
        this.transaction = transaction;
        this.properties = properties;
        this.meters = meters;
        this.clock = clock;
    }

    @Override
    public EventType eventType() {
        return EventType.BOOKING_ACTIVATED;
    }

    @Override
    public Mono<Void> deliver(Event activated) {
        if (activated.paymentId() == null || activated.bookingId() == null) {
            return Mono.error(new IllegalStateException("event " + activated.id() + " names no payment or booking"));
        }
        return payments.findAnyMerchant(activated.paymentId())
                .filter(payment -> payment.merchantId().equals(activated.merchantId()))
                .switchIfEmpty(Mono.error(() -> new IllegalStateException(
                        "payment " + activated.paymentId() + " of event " + activated.id() + " not found for merchant "
                                + activated.merchantId())))
                .flatMap(payment -> {
                    if (payment.customerEmail() == null || payment.customerEmail().isBlank()) {
                        log.info("No confirmation for booking {} (event {}, payment {}, merchant {}): no customerEmail",
                                activated.bookingId(), activated.id(), payment.id(), payment.merchantId());
                        return Mono.empty();
                    }
                    return confirm(ConfirmationMessage.of(activated, payment, properties.from()), payment.metadata());
                });
    }

    private Mono<Void> confirm(ConfirmationMessage message, Map<String, String> metadata) {
        UUID token = UUID.randomUUID();
        return Mono.defer(() -> {
            // Taken before the claim statement is sent: the claimed_until it writes is later than this + timeout.
            long claimedAt = retry.now();
            return confirmations.claim(message, token, properties.claimTimeout())
                    .flatMap(claim -> switch (claim) {
                        case CLAIMED -> sendAndRecord(message, metadata, token,
                                RecordingRetry.deadline(claimedAt, properties.claimTimeout()));
                        case ALREADY_SENT -> {
                            log.info("Booking {} (event {}, payment {}, merchant {}) was already confirmed; nothing"
                                    + " sent", message.bookingId(), message.eventId(), message.paymentId(),
                                    message.merchantId());
                            yield Mono.empty();
                        }
                        case HELD_BY_ANOTHER_DELIVERY -> Mono.error(new IllegalStateException(
                                "the confirmation of booking " + message.bookingId()
                                        + " is being sent by another delivery"));
                    });
        });
    }

    private Mono<Void> sendAndRecord(ConfirmationMessage message, Map<String, String> metadata, UUID token,
                                     long recordDeadline) {
        Mono<Void> sendThenRecord = Mono.defer(() -> mailer.send(message))
                .onErrorResume(sendFailure -> confirmations.release(message.merchantId(), message.bookingId(), token)
                        .onErrorResume(releaseFailure -> Mono.empty())
                        .then(Mono.error(sendFailure)))
                // Accepted: the e-mail cannot be taken back, so an unavailable database does not stop the recording.
                .flatMap(channel -> retry.record(Mono.defer(() -> record(message, metadata, token)), recordDeadline,
                                "confirmation of booking " + message.bookingId() + " (event " + message.eventId() + ")")
                        .doOnSuccess(done -> Counter.builder("payments.confirmations.sent")
                                .description("Booking confirmation e-mails handed to the mail server or the log")
                                .tag("channel", channel.name().toLowerCase())
                                .register(meters)
                                .increment()));
        // One unit that no cancellation stops: the blocking SMTP send cannot be taken back once begun, so when the
        // relay stops waiting (payments.outbox.delivery-timeout) the send still ends in markSent (or release), and
        // the relay's next attempt finds the confirmation sent instead of sending it again once the claim expires.
        return Mono.fromFuture(sendThenRecord::toFuture, true);
    }

    private Mono<Void> record(ConfirmationMessage message, Map<String, String> metadata, UUID token) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("bookingId", message.bookingId());
        data.put("paymentId", message.paymentId());
        data.put("messageId", message.messageId());
        data.put("recipient", message.recipient());
        data.put("metadata", new java.util.TreeMap<>(metadata)); // the payment's, as in every event about it
        return confirmations.markSent(message.merchantId(), message.bookingId(), token)
                .flatMap(stillClaimed -> stillClaimed
                        ? events.append(message.merchantId(), EventType.BOOKING_CONFIRMATION_SENT, message.paymentId(),
                                message.bookingId(), data, Timestamps.now(clock)).then()
                        // Sent while our claim expired and another delivery took over: it records, or is retried.
                        : Mono.error(new IllegalStateException("the claim on the confirmation of booking "
                                + message.bookingId() + " expired while sending")))
                .as(transaction::transactional);
    }
}
