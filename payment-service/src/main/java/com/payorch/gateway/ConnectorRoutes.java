package com.payorch.gateway;

import java.time.Duration;
import java.util.Optional;

import java.util.List;

/**
 * Which connectors a merchant's payments go to, in order (`payments.merchants.<id>.routing`, or
 * `routing-by-currency.<CUR>` for that currency). The first takes a new attempt; the next one only after a definite
 * "not charged" ({@link GatewayUnavailableException}) from the one before.
 */
public interface ConnectorRoutes {

    /** The merchant's route for payments in {@code currency}: never empty. */
    List<String> route(String merchantId, String currency);

    /** The first connector of the route. */
    default String first(String merchantId, String currency) {
        return route(merchantId, currency).get(0);
    }

    /** How long {@code connector} honours an idempotency key ({@link Connector#idempotencyKeyLifetime()}). */
    default Optional<Duration> keyLifetime(String connector) {
        return Optional.empty();
    }

    /** How {@code connector} writes amounts ({@link Connector#currencyUnits()}). */
    default CurrencyUnits units(String connector) {
        return CurrencyUnits.ISO;
    }
}
