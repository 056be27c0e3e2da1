package com.payorch.connectors;

import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorRoutes;
import com.payorch.gateway.GatewayProperties;
import com.payorch.gateway.PaymentGateway;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The composition root of the gateway port: every {@link Connector} bean (one per connector folder), each bounded by
 * `payments.gateway.timeout`, behind the {@link ConnectorRouter} that sends each attempt to its connector. Which
 * connector a merchant's payments go to is the merchant's route (`payments.merchants.<id>.routing`, default
 * `sandbox`).
 */
@Configuration(proxyBeanMethods = false)
class ConnectorConfiguration {

    /** The one {@link PaymentGateway} and {@link ConnectorRoutes} the rest of the service sees. */
    @Bean
    @Primary
    ConnectorRouter connectorRouter(List<Connector> connectors, GatewayProperties gateway, RoutingProperties routing) {
        return new ConnectorRouter(connectors, gateway.timeout(), routing);
    }
}
