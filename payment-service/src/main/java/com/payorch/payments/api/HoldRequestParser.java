package com.payorch.payments.api;

import com.payorch.web.ApiProblem;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The bodies of `POST /v1/payments/{id}/capture` and `/cancel`, or a 400 `invalid_request` whose detail names the
 * offending field. The same strict rules as every other body: no coercion, no unknown members.
 */
@Component
public class HoldRequestParser {

    static final long MAX_AMOUNT = 100_000_000_000L;
    static final int MAX_CANCEL_REASON = 200;

    /** `{}` or `{"amount": n}`: null when all that is capturable is to be captured. */
    public @Nullable Long parseCapture(JsonNode body) {
        PaymentRequestParser.requireObject(body);
        PaymentRequestParser.rejectUnknownMembers(body, Set.of("amount"));
        Long amount = PaymentRequestParser.integer(body, "amount");
        if (amount != null && (amount < 1 || amount > MAX_AMOUNT)) {
            throw ApiProblem.invalidRequest("Field 'amount' must be an integer from 1 to " + MAX_AMOUNT + "; it is "
                    + amount + ".");
        }
        return amount;
    }

    /** `{}` or `{"reason": "…"}`: at most 200 characters, no control characters; null when none was given. */
    public @Nullable String parseCancel(JsonNode body) {
        PaymentRequestParser.requireObject(body);
        PaymentRequestParser.rejectUnknownMembers(body, Set.of("reason"));
        String reason = PaymentRequestParser.text(body, "reason");
        PaymentRequestParser.requireCleanText("reason", reason, false);
        if (reason != null && reason.codePointCount(0, reason.length()) > MAX_CANCEL_REASON) {
            throw ApiProblem.invalidRequest("Field 'reason' must be at most " + MAX_CANCEL_REASON + " characters.");
        }
        return reason;
    }
}
