package com.payorch.hostile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The problem {@code code}s the contract and docs/api.md define: the contract's own (API.md) plus the
 * implementation's documented additions. An answer with any other code is a defect.
 */
final class ProblemCodes {

    /** Written out here on purpose (not derived from the service's enum): the test holds the service to the docs. */
    static final Set<String> KNOWN = Set.of(
            // the contract's
            "invalid_request", "payload_too_large", "unauthenticated", "not_found", "idempotency_key_missing",
            "idempotency_key_invalid", "idempotency_key_reused", "idempotency_request_in_progress",
            "booking_payment_in_progress", "booking_already_paid", "invalid_transition", "version_mismatch",
            "webhook_signature_invalid", "webhook_invalid", "rate_limited", "booking_cancelled",
            "payment_not_refundable", "amount_exceeds_refundable",
            // docs/api.md's implementation additions
            "method_not_allowed", "not_acceptable", "unsupported_media_type", "concurrent_modification",
            "webhook_signature_rejected", "internal_error", "gateway_error", "service_unavailable",
            "uri_too_long", "request_header_too_large", "request_timeout");

    private static final Pattern TABLE_ROW = Pattern.compile("^\\| `([a-z_]+)` \\| (\\d{3}) \\|", Pattern.MULTILINE);

    private ProblemCodes() {
    }

    /** The codes of the problem-code table in docs/api.md. */
    static Set<String> documented() throws IOException {
        Path api = Path.of("../docs/api.md");
        if (!Files.exists(api)) {
            api = Path.of("docs/api.md");
        }
        Matcher rows = TABLE_ROW.matcher(Files.readString(api));
        Set<String> codes = new TreeSet<>();
        while (rows.find()) {
            codes.add(rows.group(1));
        }
        return codes;
    }
}
