package com.payorch.idempotency.api;

import com.payorch.web.ApiProblem;
import com.payorch.web.ProblemCode;
import java.util.List;

/** Reads the `Idempotency-Key` header: `"abc"` (the IETF draft's quoted form) and `abc` are the same key. */
public final class IdempotencyKeyHeader {

    public static final String NAME = "Idempotency-Key";
    private static final int MAX_LENGTH = 255;

    private IdempotencyKeyHeader() {
    }

    public static String parse(List<String> values) {
        if (values == null || values.isEmpty()) {
            throw new ApiProblem(ProblemCode.IDEMPOTENCY_KEY_MISSING, "The Idempotency-Key header is required.");
        }
        if (values.size() > 1) {
            throw invalid("Send exactly one Idempotency-Key header.");
        }
        String key = unquote(values.get(0));
        if (key.isEmpty()) {
            throw invalid("The Idempotency-Key header is empty.");
        }
        if (key.length() > MAX_LENGTH) {
            throw invalid("The Idempotency-Key header is longer than 255 characters.");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw invalid("The Idempotency-Key header may contain only visible ASCII characters.");
            }
        }
        return key;
    }

    private static String unquote(String raw) {
        if (raw.length() >= 2 && raw.charAt(0) == '"' && raw.charAt(raw.length() - 1) == '"') {
            return raw.substring(1, raw.length() - 1);
        }
        return raw;
    }

    private static ApiProblem invalid(String detail) {
        return new ApiProblem(ProblemCode.IDEMPOTENCY_KEY_INVALID, detail);
    }
}
