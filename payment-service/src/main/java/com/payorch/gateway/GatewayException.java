package com.payorch.gateway;

/** The gateway call failed and its outcome is unknown: the charge may or may not exist. */
public class GatewayException extends RuntimeException {

    public GatewayException(String message) {
        super(message);
    }

    public GatewayException(String message, Throwable cause) {
        super(message, cause);
    }
}
