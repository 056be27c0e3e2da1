package com.payorch.gateway;

/** The gateway could not be reached; the payment stays PENDING and recovery submits it again later. */
public class GatewayUnavailableException extends GatewayException {

    public GatewayUnavailableException(String message) {
        super(message);
    }
}
