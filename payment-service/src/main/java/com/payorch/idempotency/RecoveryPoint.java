package com.payorch.idempotency;

/**
 * The last committed step of an idempotent request; a retry resumes from here. {@link #STARTED} and {@link #FINISHED}
 * are this module's own. The steps between belong to the caller: it names them (e.g. "PAYMENT_CREATED"), commits
 * each together with the id of the resource it created, and gets both back when a retry resumes. This module never
 * reads the caller's names or resources.
 */
public final class RecoveryPoint {

    /** The key is claimed; nothing else has happened yet. */
    public static final String STARTED = "STARTED";
    /** The response is stored; every later request with this key gets it back unchanged. */
    public static final String FINISHED = "FINISHED";

    private RecoveryPoint() {
    }

    /** A caller's step: any name but this module's own two. */
    static String callerStep(String name) {
        if (name.isBlank() || STARTED.equals(name) || FINISHED.equals(name)) {
            throw new IllegalArgumentException("not a caller's recovery point: '" + name + "'");
        }
        return name;
    }
}
