package com.payorch.statemachine;

/**
 * The states of the dispute state machine: the public {@link DisputeStatus} values plus {@link #NEW}, the machine's
 * initial state, which no transition leaves: a dispute starts OPEN with its first report, not by an event. NEW is
 * there so that the definition's transitions read with their real sources ({@link DefinedTransitions} reads the
 * initial state as "none"). NEW never leaves this package.
 */
enum DisputeState {
    NEW,
    OPEN,
    WON,
    LOST;

    static DisputeState of(DisputeStatus status) {
        return switch (status) {
            case OPEN -> OPEN;
            case WON -> WON;
            case LOST -> LOST;
        };
    }

    DisputeStatus toStatus() {
        return switch (this) {
            case OPEN -> DisputeStatus.OPEN;
            case WON -> DisputeStatus.WON;
            case LOST -> DisputeStatus.LOST;
            case NEW -> throw new IllegalStateException("NEW is not a dispute status: no transition leads to it");
        };
    }
}
