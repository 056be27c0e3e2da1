package com.payorch.confirmations;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.confirmations.*}: the booking confirmation e-mails.
 *
 * @param from         The confirmation e-mail's sender address.
 * @param claimTimeout How long one delivery may take to send a booking's confirmation (or cancellation e-mail) and
 *                     record it before another delivery may take over and send it again; it should exceed the SMTP
 *                     timeouts (10 s each unless spring.mail.properties.mail.smtp.*timeout say otherwise). Recording
 *                     an e-mail the mail server accepted is retried while the database is unavailable, until 3/4 of
 *                     this after the claim, so it should also exceed a database restart or failover.
 */
@ConfigurationProperties("payments.confirmations")
public record ConfirmationProperties(@DefaultValue("bookings@payorch.local") String from,
                                     @DefaultValue("PT2M") Duration claimTimeout) {

    public ConfirmationProperties {
        if (from == null || from.isBlank()) {
            throw new IllegalArgumentException("payments.confirmations.from must be an e-mail address, not blank");
        }
    }
}
