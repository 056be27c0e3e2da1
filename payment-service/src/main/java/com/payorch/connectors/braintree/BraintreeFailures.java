package com.payorch.connectors.braintree;

import com.braintreegateway.exceptions.AuthenticationException;
import com.braintreegateway.exceptions.AuthorizationException;
import com.braintreegateway.exceptions.ConfigurationException;
import com.braintreegateway.exceptions.NotFoundException;
import com.braintreegateway.exceptions.UpgradeRequiredException;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayUnavailableException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Braintree's failures in the port's three kinds; messages name the call and the HTTP answer, never a key.
 * <ul>
 *   <li>connection refused, unknown host, no route, connect time-out → {@link GatewayUnavailableException} (never
 *       sent);</li>
 *   <li>401 (`AuthenticationException`), 403 (`AuthorizationException`), 404 (`NotFoundException`), 426 (upgrade
 *       required), no account configured, and a 422 with validation errors but no transaction →
 *       {@link ConnectorRefusedException} (certainly not charged, not a decline: the route may fail over);</li>
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
            return new ConnectorRefusedException(about + ": refused (" + e.getClass().getSimpleName() + "), not done");
        }
        Throwable notSent = notSentCause(e);
        if (notSent != null) {
            return new GatewayUnavailableException(about + ": not sent (" + notSent.getClass().getSimpleName() + ")");
        }
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return new GatewayException(about + ": outcome unknown (" + e.getClass().getSimpleName()
                + (cause != e ? ", " + cause.getClass().getSimpleName() : "") + ")");
    }

    /** The exception in the cause chain that proves the request never left, or null. */
    static @Nullable Throwable notSentCause(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof UnknownHostException
                    || cause instanceof NoRouteToHostException || cause instanceof HttpConnectTimeoutException) {
                return cause;
            }
        }
        return null;
    }
}
