package com.payorch.gateway;

/**
 * The connector answered with a definite refusal that is not a decline (authentication, permission or
 * configuration error): the attempt was certainly not charged, so the payment may move on to the next connector of
 * its route. Its message names no credential.
 */
public class ConnectorRefusedException extends GatewayUnavailableException {

    public ConnectorRefusedException(String message) {
        super(message);
    }
}
