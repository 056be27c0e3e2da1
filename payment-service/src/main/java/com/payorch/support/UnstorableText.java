package com.payorch.support;

/** Text the database refused to store (U+0000, invalid UTF-8) that got past the parsers' own checks. */
public class UnstorableText extends Refusal {

    public UnstorableText() {
        super("invalid_request",
                "The request contains characters that cannot be stored (such as U+0000 or invalid UTF-8).");
    }
}
