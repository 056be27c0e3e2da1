package com.payorch.support;

/** `starting_after` names an item that is not in the list asked for (unknown, another merchant's, or filtered out). */
public class UnknownCursor extends Refusal {

    public UnknownCursor(String startingAfter) {
        super("invalid_request",
                "Query parameter 'starting_after' must be the id of an item in this list; " + startingAfter
                + " is not one.");
    }
}
