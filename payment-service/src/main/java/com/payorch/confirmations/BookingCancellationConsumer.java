package com.payorch.confirmations;

import com.payorch.events.Event;
import com.payorch.events.EventType;
import com.payorch.outbox.OutboxConsumer;
import com.payorch.payments.PaymentQueries;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * On `booking.cancelled` (the booking's payment refunded in full, or its hold released): one cancellation e-mail to the payment's
 * customerEmail (none without one), exactly as {@link BookingConfirmationConsumer} sends confirmations: the
 * `booking_cancellation_emails` row is claimed before sending and marked sent after, so redeliveries of the event
 * send nothing more, and a racing delivery finds it claimed and is retried later. The Message-ID derives from the
 * event, so the duplicates that cannot be ruled out carry the same id: a crash between the mail server's acceptance and
 * the mark, or a database that stays away longer than the mark is retried (while the database is unavailable, until
 * 3/4 of `payments.confirmations.claim-timeout` after the claim, {@link RecordingRetry}). No event is written after
 * sending (the contract names none).
 */
@Component
class BookingCancellationConsumer implements OutboxConsumer {

    private static final Logger log = LoggerFactory.getLogger(BookingCancellationConsumer.class);

    private final PaymentQueries payments;
    private final BookingConfirmations notices;
    private final ConfirmationMailer mailer;
    private final ConfirmationProperties properties;
    private final MeterRegistry meters;
    private final RecordingRetry retry = new RecordingRetry();

    BookingCancellationConsumer(PaymentQueries payments, DatabaseClient db, ConfirmationMailer mailer,
                                ConfirmationProperties properties, MeterRegistry meters) {
        this.payments = payments;
        this.notices = new BookingConfirmations(db, BookingConfirmations.CANCELLATIONS);
        this.mailer = mailer;
        this.properties = properties;
        this.meters = meters;
    }

    @Override
    public EventType eventType() {
        return EventType.BOOKING_CANCELLED;
    }

    @Override
    public Mono<Void> deliver(Event cancelled) {
        if (cancelled.paymentId() == null || cancelled.bookingId() == null) {
            return Mono.error(new IllegalStateException("event " + cancelled.id() + " names no payment or booking"));
        }
        return payments.findAnyMerchant(cancelled.paymentId())
                .filter(payment -> payment.merchantId().equals(cancelled.merchantId()))
                .switchIfEmpty(Mono.error(() -> new IllegalStateException("payment " + cancelled.paymentId()
                        + " of event " + cancelled.id() + " not found for merchant " + cancelled.merchantId())))
                .flatMap(payment -> {
                    if (payment.customerEmail() == null || payment.customerEmail().isBlank()) {
                        log.info("No cancellation e-mail for booking {} (event {}): no customerEmail",
                                cancelled.bookingId(), cancelled.id());
                        return Mono.empty();
                    }
                    return notify(ConfirmationMessage.cancellationOf(cancelled, payment, properties.from()));
                });
    }

    private Mono<Void> notify(ConfirmationMessage message) {
        UUID token = UUID.randomUUID();
        return Mono.defer(() -> {
            // Taken before the claim statement is sent: the claimed_until it writes is later than this + timeout.
            long claimedAt = retry.now();
            return notices.claim(message, token, properties.claimTimeout())
                    .flatMap(claim -> switch (claim) {
                        case CLAIMED -> sendAndMark(message, token,
                                RecordingRetry.deadline(claimedAt, properties.claimTimeout()));
                        case ALREADY_SENT -> Mono.<Void>empty();
                        case HELD_BY_ANOTHER_DELIVERY -> Mono.<Void>error(new IllegalStateException(
                                "the cancellation e-mail of booking " + message.bookingId()
                                        + " is being sent by another delivery"));
                    });
        });
    }

    private Mono<Void> sendAndMark(ConfirmationMessage message, UUID token, long markDeadline) {
        Mono<Void> sendThenMark = Mono.defer(() -> mailer.send(message))
                .onErrorResume(sendFailure -> notices.release(message.merchantId(), message.bookingId(), token)
                        .onErrorResume(releaseFailure -> Mono.empty())
                        .then(Mono.error(sendFailure)))
                // Accepted: the e-mail cannot be taken back, so an unavailable database does not stop the mark.
                .flatMap(channel -> retry.record(Mono.defer(() -> notices.markSent(message.merchantId(),
                                        message.bookingId(), token)), markDeadline,
                                "cancellation e-mail of booking " + message.bookingId() + " (event " + message.eventId()
                                        + ")")
                        .flatMap(stillClaimed -> stillClaimed ? Mono.<Void>empty()
                                : Mono.<Void>error(new IllegalStateException("the claim on the cancellation e-mail of"
                                        + " booking " + message.bookingId() + " expired while sending")))
                        .doOnSuccess(done -> Counter.builder("payments.cancellations.sent")
                                .description("Booking cancellation e-mails handed to the mail server or the log")
                                .tag("channel", channel.name().toLowerCase())
                                .register(meters)
                                .increment()));
        // Not cancelled when the relay stops waiting, as for confirmations: a late acceptance is still marked sent.
        return Mono.fromFuture(sendThenMark::toFuture, true);
    }
}
