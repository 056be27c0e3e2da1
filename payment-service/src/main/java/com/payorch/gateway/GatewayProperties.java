package com.payorch.gateway;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * `payments.gateway.timeout` (PT10S): the longest any call to the payment gateway (submit, asking for a charge)
 * may take. A call without an answer by then counts as a {@link GatewayException}, outcome unknown: the API answers
 * 502 `gateway_error` (a retry with the same key resumes), recovery tries again at its next look.
 */
@ConfigurationProperties("payments.gateway")
public record GatewayProperties(Duration timeout) {

    public GatewayProperties {
        timeout = timeout != null ? timeout : Duration.ofSeconds(10);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("payments.gateway.timeout must be longer than zero: " + timeout);
        }
    }
}
