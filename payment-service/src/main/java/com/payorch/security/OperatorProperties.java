package com.payorch.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code payments.operator.*}: the operator's credentials for the actuator on the API port.
 *
 * @param apiKey {@code payments.operator.api-key}, default unset. With it, {@code /actuator/prometheus} (and every
 *               other actuator endpoint but health) answers on the API port to {@code Authorization: Bearer <key>};
 *               unset, metrics are not served on the API port (404). A merchant's API key never opens them. When
 *               {@code management.server.port} is set to another port, the actuator lives there instead, without
 *               this key: protect that port by the network.
 */
@ConfigurationProperties("payments.operator")
public record OperatorProperties(String apiKey) {

    public OperatorProperties {
        apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey;
    }
}
