package com.payorch.payments;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.customer-action.*}: how long a payment waits for its customer (3-D Secure, a redirect).
 *
 * @param expiresAfter a payment REQUIRES_ACTION for longer than this has its attempt cancelled at the connector and,
 *                     once the connector confirms, is FAILED {@code authentication_expired}
 */
@ConfigurationProperties("payments.customer-action")
public record CustomerActionProperties(@DefaultValue("PT1H") Duration expiresAfter) {

    public CustomerActionProperties {
        if (expiresAfter.isNegative() || expiresAfter.isZero()) {
            throw new IllegalArgumentException("payments.customer-action.expires-after must be positive, not "
                    + expiresAfter);
        }
    }
}
