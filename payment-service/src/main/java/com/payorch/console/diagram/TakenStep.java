package com.payorch.console.diagram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One step a payment (or refund) took, as its transition history records it.
 *
 * @param from the status it left, or {@code null} for the creation step
 * @param to   the status it reached
 */
public record TakenStep(@Nullable String from, String to) {

    public TakenStep {
        Objects.requireNonNull(to, "to");
    }
}
