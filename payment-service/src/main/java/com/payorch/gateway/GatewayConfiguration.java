package com.payorch.gateway;

import com.payorch.gateway.sandbox.SandboxGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/** The gateway the service uses: the sandbox, every call bounded by `payments.gateway.timeout`. */
@Configuration(proxyBeanMethods = false)
class GatewayConfiguration {

    @Bean
    @Primary
    PaymentGateway paymentGateway(SandboxGateway sandbox, GatewayProperties properties) {
        return new TimeLimitedGateway(sandbox, properties.timeout());
    }
}
