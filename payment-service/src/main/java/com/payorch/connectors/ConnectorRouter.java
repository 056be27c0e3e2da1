package com.payorch.connectors;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.ConnectorRoutes;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * The gateway the rest of the service uses: each call goes to the connector its {@link ChargeRequest} names (the
 * attempt's recorded connector), or to the first of the merchant's route when it names none. It also answers the
 * routes ({@link ConnectorRoutes}). It never fails over by itself: moving an attempt to another connector is
 * recorded first by payments ({@code payments.ConnectorSubmission}), so no two connectors can charge one attempt.
 */
public final class ConnectorRouter implements PaymentGateway, ConnectorRoutes {

    public static final String NAME = "router";

    private final Map<String, PaymentGateway> connectors;
    private final ConnectorProperties properties;

    /** @param connectors each connector by its name, each already bounded by the gateway time-out */
    public ConnectorRouter(Map<String, PaymentGateway> connectors, ConnectorProperties properties) {
        this.connectors = Map.copyOf(connectors);
        this.properties = properties;
        properties.getMerchants().forEach((merchantId, merchant) -> {
            // a currency no routing-by-currency names: the merchant's default route
            merchant.route("XXX").forEach(name -> requireKnown(merchantId, "routing", name));
            merchant.getRoutingByCurrency().forEach((currency, route) -> route.forEach(name ->
                    requireKnown(merchantId, "routing-by-currency." + currency, name.trim().toLowerCase(
                            java.util.Locale.ROOT))));
        });
    }

    /** A route naming a connector that does not exist is a configuration error: the service refuses to start. */
    private void requireKnown(String merchantId, String key, String name) {
        if (!connectors.containsKey(name)) {
            throw new IllegalStateException("payments.merchants." + merchantId + "." + key + " names connector '"
                    + name + "'; known connectors: " + connectors.keySet());
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> route(String merchantId, String currency) {
        ConnectorProperties.Merchant merchant = properties.merchant(merchantId);
        List<String> route = merchant != null ? merchant.route(currency) : List.of(ConnectorProperties.SANDBOX);
        return route.isEmpty() ? List.of(ConnectorProperties.SANDBOX) : route;
    }

    @Override
    public Mono<GatewayOutcome> submit(ChargeRequest request) {
        return Mono.defer(() -> connectorFor(request).submit(request));
    }

    @Override
    public Mono<GatewayOutcome> find(ChargeRequest request) {
        return Mono.defer(() -> connectorFor(request).find(request));
    }

    /** A refund goes to the connector of the attempt that was charged, never elsewhere. */
    @Override
    public Mono<RefundOutcome> refund(RefundRequest request) {
        return Mono.defer(() -> connectorNamed(request.connector()).refund(request));
    }

    @Override
    public Mono<RefundOutcome> findRefund(RefundRequest request) {
        return Mono.defer(() -> connectorNamed(request.connector()).findRefund(request));
    }

    private PaymentGateway connectorNamed(String name) {
        PaymentGateway connector = connectors.get(name);
        if (connector == null) {
            throw new ConnectorRefusedException("no connector named '" + name + "' is configured");
        }
        return connector;
    }

    private PaymentGateway connectorFor(ChargeRequest request) {
        String name = request.connector();
        if (name == null) {
            name = request.merchantId() != null ? first(request.merchantId(), request.currency())
                    : ConnectorProperties.SANDBOX;
        }
        PaymentGateway connector = connectors.get(name);
        if (connector == null) {
            throw new ConnectorRefusedException("no connector named '" + name + "' is configured");
        }
        return connector;
    }
}
