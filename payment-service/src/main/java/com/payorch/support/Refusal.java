package com.payorch.support;

import java.util.Map;

/**
 * A request the domain refuses before changing anything: the base of the domain's own exceptions
 * (e.g. {@code InvalidTransition}, {@code BookingTaken}). Only the web layer turns them into problem responses.
 * Its message is the detail a client may read; it carries no stack trace.
 */
public abstract class Refusal extends RuntimeException {

    private final String code;

    /**
     * @param code the stable problem code a client reads (e.g. {@code payment_not_refundable}); the web layer owns
     *             the HTTP status and title of each code, so the domain names only the string
     */
    protected Refusal(String code, String detail) {
        super(detail, null, false, false);
        this.code = code;
    }

    public String code() {
        return code;
    }

    public String detail() {
        return getMessage();
    }

    /** Headers the answer carries besides the problem (e.g. {@code Retry-After}); none unless a refusal says so. */
    public Map<String, String> headers() {
        return Map.of();
    }
}
