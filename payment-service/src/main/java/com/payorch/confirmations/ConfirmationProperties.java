package com.payorch.confirmations;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * `payments.confirmations.from`: the confirmation e-mail's sender address. `payments.confirmations.claim-timeout`:
 * how long one delivery may take to send a booking's confirmation before another delivery may take over (it should
 * exceed the SMTP timeouts, 10 s each unless `spring.mail.properties.mail.smtp.*timeout` say otherwise).
 */
@ConfigurationProperties("payments.confirmations")
public record ConfirmationProperties(String from, Duration claimTimeout) {

    public ConfirmationProperties {
        from = from != null && !from.isBlank() ? from : "bookings@payorch.local";
        claimTimeout = claimTimeout != null ? claimTimeout : Duration.ofMinutes(2);
    }
}
