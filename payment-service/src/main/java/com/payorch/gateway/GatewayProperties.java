package com.payorch.gateway;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.gateway.*}: what holds for every connector.
 *
 * @param timeout The longest any call to a connector (submit, asking for a charge) may take. A call without an answer
 *                by then counts as a GatewayException, outcome unknown: the API answers 502 gateway_error (a retry
 *                with the same key resumes), recovery tries again at its next look.
 */
@ConfigurationProperties("payments.gateway")
public record GatewayProperties(@DefaultValue("PT10S") Duration timeout) {

    public GatewayProperties {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("payments.gateway.timeout must be longer than zero: " + timeout);
        }
    }
}
