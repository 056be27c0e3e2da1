package com.payorch.gateway;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import org.jspecify.annotations.Nullable;

/**
 * The three kinds of failure every connector reports, decided in one place:
 * <ul>
 *   <li><b>not sent</b> ({@link GatewayUnavailableException}): the request never left (the connection was never
 *       made, the name not resolved): certainly not charged;</li>
 *   <li><b>refused</b> ({@link ConnectorRefusedException}): the connector answered with a definite refusal that is not
 *       a decline (credentials, permissions, validation): certainly not charged;</li>
 *   <li><b>ambiguous</b> (any other {@link GatewayException}): a time-out, a reset, a 5xx, anything else: the charge
 *       may exist.</li>
 * </ul>
 * Only a definite "not charged" lets an attempt move on to the next connector of its route. Messages name the
 * request and the connector's status or exception class, never a credential.
 */
public final class FailureKinds {

    private FailureKinds() {
    }

    /**
     * The exception in the cause chain that proves the request never left, or null. A reset, an end of stream or a
     * time-out after connecting are not in this list.
     */
    public static @Nullable Throwable notSentCause(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof UnknownHostException
                    || cause instanceof NoRouteToHostException) {
                return cause;
            }
        }
        return null;
    }

    /** A transport failure: "not sent" when the cause chain proves it, else "outcome unknown". */
    public static GatewayException transportFailure(String about, Throwable e) {
        Throwable notSent = notSentCause(e);
        if (notSent != null) {
            return notSent(about, notSent);
        }
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return new GatewayException(about + ": outcome unknown (" + cause.getClass().getSimpleName() + ")");
    }

    public static GatewayUnavailableException notSent(String about, Throwable cause) {
        return new GatewayUnavailableException(about + ": not sent (" + cause.getClass().getSimpleName() + ")");
    }

    /** A definite refusal that is not a decline: {@code answer} is what the connector said (status, code). */
    public static ConnectorRefusedException refused(String about, String answer) {
        return new ConnectorRefusedException(about + ": refused with " + answer + ", not charged");
    }

    /** Anything the connector said that leaves the outcome open: {@code answer} is what it said. */
    public static GatewayException ambiguous(String about, String answer) {
        return new GatewayException(about + ": " + answer + ", outcome unknown");
    }
}
