package com.payorch.connectors;

import com.payorch.gateway.ConnectorRoutes;
import com.payorch.gateway.GatewayProperties;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.TimeLimitedGateway;
import com.payorch.gateway.sandbox.SandboxGateway;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The connectors the service uses (the composition root of the gateway port): the sandbox, Stripe and Adyen, each
 * bounded by `payments.gateway.timeout`, behind the {@link ConnectorRouter} that sends each attempt to its
 * connector. Which connector a merchant's payments go to is the merchant's route (`payments.merchants.<id>.routing`,
 * default `sandbox`).
 */
@Configuration(proxyBeanMethods = false)
class ConnectorConfiguration {

    /** The blocking PSP SDKs run here, never on an event loop; bounded threads and queue. */
    @Bean(destroyMethod = "dispose")
    Scheduler connectorScheduler(ConnectorProperties properties) {
        return Schedulers.newBoundedElastic(properties.getConnectors().getStripe().getThreads(), 10_000,
                "connector-io");
    }

    /** The one {@link PaymentGateway} and {@link ConnectorRoutes} the rest of the service sees. */
    @Bean
    @Primary
    ConnectorRouter connectorRouter(SandboxGateway sandbox, GatewayProperties gateway, ConnectorProperties properties,
                                    Scheduler connectorScheduler,
                                    @Qualifier("braintreeGateway") PaymentGateway braintree) {
        Map<String, PaymentGateway> connectors = new LinkedHashMap<>();
        connectors.put(SandboxGateway.NAME, new TimeLimitedGateway(sandbox, gateway.timeout()));
        connectors.put(StripeGateway.NAME, new TimeLimitedGateway(new StripeGateway(properties, connectorScheduler),
                gateway.timeout()));
        connectors.put(AdyenGateway.NAME, new TimeLimitedGateway(new AdyenGateway(properties, connectorScheduler),
                gateway.timeout()));
        connectors.put(braintree.name(), new TimeLimitedGateway(braintree, gateway.timeout()));
        return new ConnectorRouter(connectors, properties);
    }
}
