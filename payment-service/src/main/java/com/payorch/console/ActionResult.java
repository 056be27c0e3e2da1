package com.payorch.console;

/**
 * What a console action came to, for the notice on the page it returns to: done now, done before under the same
 * action key (a double submit: nothing was done again), or refused (nothing was done).
 */
public record ActionResult(Kind kind, String message) {

    public enum Kind { DONE, ALREADY_DONE, REFUSED }

    static ActionResult done(String message) {
        return new ActionResult(Kind.DONE, message);
    }

    static ActionResult alreadyDone(String message) {
        return new ActionResult(Kind.ALREADY_DONE, "Already done (this confirmation was submitted before): "
                + message);
    }

    static ActionResult refused(String message) {
        return new ActionResult(Kind.REFUSED, message);
    }
}
