package com.payorch.connectors;

import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.CompleteRequest;
import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.ConnectorRoutes;
import com.payorch.gateway.CurrencyUnits;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import com.payorch.gateway.TimeLimitedGateway;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
    private final Map<String, Connector> plugged;
    private final RoutingProperties properties;

    /**
     * Checks each connector's settings and every merchant's route, and bounds each connector's gateway in time.
     *
     * @param timeout the longest any call to a connector may take (`payments.gateway.timeout`)
     */
    public ConnectorRouter(List<Connector> plugged, Duration timeout, RoutingProperties properties) {
        Map<String, PaymentGateway> byName = new LinkedHashMap<>();
        Map<String, Connector> pluggedByName = new LinkedHashMap<>();
        for (Connector connector : plugged) {
            pluggedByName.put(connector.name(), connector);
            connector.checkSettings();
            if (byName.put(connector.name(), new TimeLimitedGateway(connector.gateway(), timeout)) != null) {
                throw new IllegalStateException("two connectors are named '" + connector.name() + "'");
            }
        }
        this.connectors = Map.copyOf(byName);
        this.plugged = Map.copyOf(pluggedByName);
        this.properties = properties;
        properties.getMerchants().forEach((merchantId, merchant) -> {
            // a currency no routing-by-currency names: the merchant's default route
            merchant.route("XXX").forEach(name -> requireKnown(merchantId, "routing", name));
            merchant.getRoutingByCurrency().forEach((currency, route) -> route.forEach(name ->
                    requireKnown(merchantId, "routing-by-currency." + currency, name.trim().toLowerCase(
                            Locale.ROOT))));
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
        RoutingProperties.Merchant merchant = properties.merchant(merchantId);
        List<String> route = merchant != null ? merchant.route(currency) : List.of(RoutingProperties.SANDBOX);
        return route.isEmpty() ? List.of(RoutingProperties.SANDBOX) : route;
    }

    @Override
    public Optional<Duration> keyLifetime(String connector) {
        Connector named = plugged.get(connector);
        return named != null ? named.idempotencyKeyLifetime() : Optional.empty();
    }

    @Override
    public CurrencyUnits units(String connector) {
        Connector named = plugged.get(connector);
        return named != null ? named.currencyUnits() : CurrencyUnits.ISO;
    }

    @Override
    public Mono<Void> cancelByReference(ChargeRequest request) {
        return Mono.defer(() -> connectorFor(request).cancelByReference(request));
    }

    @Override
    public Mono<GatewayOutcome> submit(ChargeRequest request) {
        return Mono.defer(() -> connectorFor(request).submit(request));
    }

    @Override
    public Mono<GatewayOutcome> find(ChargeRequest request) {
        return Mono.defer(() -> connectorFor(request).find(request));
    }

    /** A capture or a cancel goes to the connector of the authorised attempt, never elsewhere. */
    @Override
    public Mono<GatewayOutcome> capture(CaptureRequest request) {
        return Mono.defer(() -> connectorFor(request.charge()).capture(request));
    }

    @Override
    public Mono<GatewayOutcome> cancel(CancelRequest request) {
        return Mono.defer(() -> connectorFor(request.charge()).cancel(request));
    }

    /** The customer came back to the connector that asked for them, never to another. */
    @Override
    public Mono<GatewayOutcome> complete(CompleteRequest request) {
        return Mono.defer(() -> connectorFor(request.charge()).complete(request));
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
                    : RoutingProperties.SANDBOX;
        }
        PaymentGateway connector = connectors.get(name);
        if (connector == null) {
            throw new ConnectorRefusedException("no connector named '" + name + "' is configured");
        }
        return connector;
    }
}
