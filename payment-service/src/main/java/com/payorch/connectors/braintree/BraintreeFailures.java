package com.payorch.connectors.braintree;

import com.braintreegateway.exceptions.AuthenticationException;
import com.braintreegateway.exceptions.AuthorizationException;
import com.braintreegateway.exceptions.ConfigurationException;
import com.braintreegateway.exceptions.NotFoundException;
import com.braintreegateway.exceptions.UpgradeRequiredException;
import com.payorch.gateway.FailureKinds;
import com.payorch.gateway.GatewayException;

/**
 * Braintree's failures in the port's three kinds; messages name the call and the HTTP answer, never a key.
 * <ul>
 *   <li>connection refused, unknown host, no route, connect time-out → {@link com.payorch.gateway.GatewayUnavailableException} (never
 *       sent);</li>
 *   <li>401 (`AuthenticationException`), 403 (`AuthorizationException`), 404 (`NotFoundException`), 426 (upgrade
 *       required), no account configured, and a 422 with validation errors but no transaction →
 *       {@link com.payorch.gateway.ConnectorRefusedException} (certainly not charged, not a decline: the route may fail over);</li>
 *   <li>read time-out, 5xx, 429, a reset or an empty answer, anything else → an ambiguous {@link GatewayException}.</li>
 * </ul>
 */
final class BraintreeFailures {

    private BraintreeFailures() {
    }

    static GatewayException translate(String about, RuntimeException e) {
        if (e instanceof GatewayException gateway) {
            return gateway;
        }
        if (e instanceof AuthenticationException || e instanceof AuthorizationException
                || e instanceof NotFoundException || e instanceof UpgradeRequiredException
                || e instanceof ConfigurationException) {
            return FailureKinds.refused(about, e.getClass().getSimpleName());
        }
        return FailureKinds.transportFailure(about, e);
    }
}
