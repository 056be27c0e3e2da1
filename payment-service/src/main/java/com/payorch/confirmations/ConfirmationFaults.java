package com.payorch.confirmations;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/** A switch for tests and demos that makes confirmations misbehave the way a dying process does. Off unless armed. */
@Component
public class ConfirmationFaults {

    private final AtomicInteger failuresBeforeSending = new AtomicInteger();
    private final AtomicInteger failuresAfterRecording = new AtomicInteger();

    /** The next confirmation delivery fails before it sends anything, as a mail server outage would. Each call arms one. */
    public void failNextBeforeSending() {
        failuresBeforeSending.incrementAndGet();
    }

    /**
     * The next confirmation is sent and recorded (booking.confirmation_sent committed), and then its delivery fails,
     * as if the process died before the relay marked the booking.activated event dispatched. Each call arms one.
     */
    public void failNextAfterRecording() {
        failuresAfterRecording.incrementAndGet();
    }

    boolean takeFailureBeforeSending() {
        return take(failuresBeforeSending);
    }

    boolean takeFailureAfterRecording() {
        return take(failuresAfterRecording);
    }

    private static boolean take(AtomicInteger armed) {
        return armed.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }
}
