package com.payorch.gateway;

/**
 * The attempt was certainly not charged by this connector: the request never reached it (connection refused, name
 * not resolved), or it refused definitely without a decline ({@link ConnectorRefusedException}). The payment stays
 * PENDING; it moves to the next connector of its route, if any, or recovery submits it again later.
 */
public class GatewayUnavailableException extends GatewayException {

    public GatewayUnavailableException(String message) {
        super(message);
    }
}
