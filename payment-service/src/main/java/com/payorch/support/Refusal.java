package com.payorch.support;

/**
 * A request the domain refuses before changing anything: the base of the domain's own exceptions
 * (e.g. {@code InvalidTransition}, {@code BookingTaken}). Only the web layer turns them into problem responses.
 * Its message is the detail a client may read; it carries no stack trace.
 */
public abstract class Refusal extends RuntimeException {

    protected Refusal(String detail) {
        super(detail, null, false, false);
    }

    public String detail() {
        return getMessage();
    }
}
