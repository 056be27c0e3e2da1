package com.payorch.connectors;

import com.payorch.gateway.GatewayProperties;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.TimeLimitedGateway;
import com.payorch.gateway.sandbox.SandboxGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The connectors the service uses (the composition root of the gateway port): the sandbox, every call bounded by
 * `payments.gateway.timeout`.
 */
@Configuration(proxyBeanMethods = false)
class ConnectorConfiguration {

    @Bean
    @Primary
    PaymentGateway paymentGateway(SandboxGateway sandbox, GatewayProperties properties) {
        return new TimeLimitedGateway(sandbox, properties.timeout());
    }
}
