package com.payorch.payments.api;

import com.payorch.web.ApiProblem;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The body of `POST /v1/payments/{id}/complete`: `{}` (the service asks the connector) or `{"redirectResult": "…"}`
 * (what the customer's browser brought back, passed on as it is, e.g. to Adyen's `/payments/details`). Anything
 * else is a 400 `invalid_request` whose detail names the offending field, as for every other body.
 */
@Component
public class CompleteRequestParser {

    /** Adyen's redirectResult is a few hundred characters; the limit only keeps absurd values out of the log. */
    static final int MAX_REDIRECT_RESULT = 4096;

    /** The redirectResult, or null when the body carries none. */
    public @Nullable String parse(JsonNode body) {
        PaymentRequestParser.requireObject(body);
        PaymentRequestParser.rejectUnknownMembers(body, Set.of("redirectResult"));
        String redirectResult = PaymentRequestParser.text(body, "redirectResult");
        if (redirectResult == null) {
            return null;
        }
        int length = redirectResult.codePointCount(0, redirectResult.length());
        if (length < 1 || length > MAX_REDIRECT_RESULT) {
            throw ApiProblem.invalidRequest("Field 'redirectResult' must be 1-" + MAX_REDIRECT_RESULT
                    + " characters; it has " + length + ".");
        }
        PaymentRequestParser.requireCleanText("redirectResult", redirectResult, false);
        return redirectResult;
    }
}
