package com.payorch.connectors.sandbox;

import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.stereotype.Component;

/**
 * `deliver-twice` and `reverse-order` as configured, switchable at run time by tests and demos. A charge whose
 * deliveries have begun keeps the options it began with.
 */
@Component
public class SandboxDeliveryOptions {

    private final AtomicBoolean deliverTwice;
    private final AtomicBoolean reverseOrder;

    public SandboxDeliveryOptions(SandboxGatewayProperties properties) {
        this.deliverTwice = new AtomicBoolean(properties.deliverTwice());
        this.reverseOrder = new AtomicBoolean(properties.reverseOrder());
    }

    public boolean deliverTwice() {
        return deliverTwice.get();
    }

    public void deliverTwice(boolean on) {
        deliverTwice.set(on);
    }

    public boolean reverseOrder() {
        return reverseOrder.get();
    }

    public void reverseOrder(boolean on) {
        reverseOrder.set(on);
    }
}
