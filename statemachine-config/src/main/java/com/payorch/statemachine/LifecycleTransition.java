package com.payorch.statemachine;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One transition of a life cycle as its state machine defines it, in the public vocabulary (status and event names),
 * free of Spring Statemachine types: for drawing the life cycle, not for deciding it ({@link PaymentLifecycle#next}
 * decides).
 *
 * @param source the status the transition leaves, or {@code null} for the initial pseudo-state (the thing does not
 *               exist yet)
 * @param event  the event that triggers it, e.g. {@code SUBMIT}
 * @param target the status it leads to
 */
public record LifecycleTransition(@Nullable String source, String event, String target) {

    public LifecycleTransition {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(target, "target");
    }

    /** Whether this is the creation step, from the initial pseudo-state. */
    public boolean isInitial() {
        return source == null;
    }
}
