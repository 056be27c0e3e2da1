package com.payorch.payments.api;

import com.payorch.gateway.CaptureMethod;
import com.payorch.payments.NewPayment;

import com.payorch.support.Text;
import com.payorch.web.ApiProblem;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.Comparator;
import java.util.Currency;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * Turns a parsed JSON body into a {@link NewPayment}, or a 400 whose detail names the offending field.
 * JSON types are checked by hand (no coercion of "12000" into a number); value rules are Bean Validation's.
 */
@Component
public class PaymentRequestParser {

    static final Set<String> CREATE_FIELDS =
            Set.of("bookingId", "amount", "currency", "paymentMethod", "customerEmail", "description", "metadata",
                    "captureMethod", "returnUrl");
    static final int MAX_METADATA_KEYS = 20;
    static final int MAX_METADATA_VALUE = 500;
    static final java.util.regex.Pattern METADATA_KEY = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]{1,40}");

    record CreateFields(
            @NotNull @Pattern(regexp = "[A-Za-z0-9_-]{1,64}", message = "must be 1-64 characters of A-Z a-z 0-9 _ -")
            String bookingId,
            @NotNull @Min(value = 1, message = "must be at least 1") @Max(value = 100_000_000_000L, message = "must be at most 100000000000")
            Long amount,
            @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be an upper-case ISO 4217 code")
            String currency,
            @NotNull @Size(min = 1, max = 64, message = "must be 1-64 characters")
            String paymentMethod,
            @Email(message = "must be an e-mail address") @Size(min = 3, max = 254, message = "must be an e-mail address of at most 254 characters")
            String customerEmail,
            String description) {
    }

    private final Validator validator;

    public PaymentRequestParser(Validator validator) {
        this.validator = validator;
    }

    public NewPayment parseCreate(JsonNode body) {
        requireObject(body);
        rejectUnknownMembers(body, CREATE_FIELDS);
        CreateFields fields = new CreateFields(text(body, "bookingId"), integer(body, "amount"), text(body, "currency"),
                text(body, "paymentMethod"), text(body, "customerEmail"), text(body, "description"));
        requireCleanText("bookingId", fields.bookingId(), false);
        requireCleanText("currency", fields.currency(), false);
        requireCleanText("paymentMethod", fields.paymentMethod(), false);
        requireCleanText("customerEmail", fields.customerEmail(), false);
        requireCleanText("description", fields.description(), true);
        Set<ConstraintViolation<CreateFields>> violations = validator.validate(fields);
        violations.stream()
                .min(Comparator.comparing(v -> v.getPropertyPath().toString()))
                .ifPresent(v -> {
                    throw ApiProblem.invalidRequest("Field '" + v.getPropertyPath() + "' " + v.getMessage() + ".");
                });
        if (!isKnownCurrency(fields.currency())) {
            throw ApiProblem.invalidRequest("Field 'currency' must be an ISO 4217 currency code; '"
                    + fields.currency() + "' is not one.");
        }
        if (fields.description() != null && fields.description().codePointCount(0, fields.description().length()) > 500) {
            throw ApiProblem.invalidRequest("Field 'description' must be at most 500 characters.");
        }
        CaptureMethod captureMethod = captureMethod(text(body, "captureMethod"));
        String returnUrl = text(body, "returnUrl");
        return new NewPayment(fields.bookingId(), fields.amount(), fields.currency(), fields.paymentMethod(),
                fields.customerEmail(), fields.description(), metadata(body.get("metadata")), captureMethod,
                returnUrl == null ? null : ReturnUrlRule.check(returnUrl));
    }

    /** Optional `captureMethod`: `automatic` (absent or null: the default) or `manual` (a hold), nothing else. */
    private static CaptureMethod captureMethod(String value) {
        if (value == null) {
            return CaptureMethod.AUTOMATIC;
        }
        return CaptureMethod.fromValue(value).orElseThrow(() -> ApiProblem.invalidRequest(
                "Field 'captureMethod' must be \"automatic\" or \"manual\"."));
    }

    /**
     * Optional `metadata`: an object of at most 20 members, names 1-40 characters of `[A-Za-z0-9_.-]`, values
     * strings of at most 500 characters without control characters. The detail names the member at fault.
     */
    static Map<String, String> metadata(JsonNode metadata) {
        if (metadata == null || metadata.isNull()) {
            return Map.of();
        }
        if (!metadata.isObject()) {
            throw ApiProblem.invalidRequest("Field 'metadata' must be an object of string values.");
        }
        if (metadata.size() > MAX_METADATA_KEYS) {
            throw ApiProblem.invalidRequest("Field 'metadata' may have at most " + MAX_METADATA_KEYS + " keys; it has "
                    + metadata.size() + ".");
        }
        Map<String, String> values = new TreeMap<>();
        for (Map.Entry<String, JsonNode> member : metadata.properties()) {
            String key = member.getKey();
            if (!METADATA_KEY.matcher(key).matches()) {
                throw ApiProblem.invalidRequest("Field 'metadata' has a key that is not 1-40 characters of"
                        + " A-Z a-z 0-9 _ . -" + (key.length() <= 40 && key.chars().allMatch(c -> c >= 0x20 && c < 0x7f)
                        ? ": '" + key + "'." : "."));
            }
            JsonNode value = member.getValue();
            if (!value.isTextual()) {
                throw ApiProblem.invalidRequest("Field 'metadata." + key + "' must be a string.");
            }
            String text = value.textValue();
            if (text.codePointCount(0, text.length()) > MAX_METADATA_VALUE) {
                throw ApiProblem.invalidRequest("Field 'metadata." + key + "' must be at most " + MAX_METADATA_VALUE
                        + " characters.");
            }
            if (text.codePoints().anyMatch(Character::isISOControl)) {
                throw ApiProblem.invalidRequest("Field 'metadata." + key + "' must not contain control characters.");
            }
            values.put(key, text);
        }
        return values;
    }

    /** A refund request: `amount` (optional, integer >= 1) and `reason` (optional, at most 200 characters). */
    public record RefundFields(Long amount, String reason) {
    }

    static final int MAX_REFUND_REASON = 200;

    public RefundFields parseRefund(JsonNode body) {
        requireObject(body);
        rejectUnknownMembers(body, Set.of("amount", "reason"));
        Long amount = integer(body, "amount");
        if (amount != null && amount < 1) {
            throw ApiProblem.invalidRequest("Field 'amount' must be at least 1.");
        }
        if (amount != null && amount > 100_000_000_000L) {
            throw ApiProblem.invalidRequest("Field 'amount' must be at most 100000000000.");
        }
        String reason = text(body, "reason");
        requireCleanText("reason", reason, false);
        if (reason != null && reason.codePointCount(0, reason.length()) > MAX_REFUND_REASON) {
            throw ApiProblem.invalidRequest("Field 'reason' must be at most " + MAX_REFUND_REASON + " characters.");
        }
        return new RefundFields(amount, reason);
    }

    /** The retry endpoint takes no parameters: an empty body or `{}`. */
    public void requireEmptyObject(JsonNode body) {
        requireObject(body);
        rejectUnknownMembers(body, Set.of());
    }

    /** Control characters are refused before anything is stored (PostgreSQL cannot even store U+0000 as text). */
    static void requireCleanText(String field, String value, boolean freeText) {
        if (value != null && !Text.isClean(value, freeText)) {
            throw ApiProblem.invalidRequest("Field '" + field + "' must not contain control characters"
                    + (freeText ? " other than tab and newline" : "") + " (such as U+0000) or unpaired surrogates.");
        }
    }

    static void requireObject(JsonNode body) {
        if (!body.isObject()) {
            throw ApiProblem.invalidRequest("The request body must be a JSON object.");
        }
    }

    static void rejectUnknownMembers(JsonNode body, Set<String> known) {
        for (String name : body.propertyNames()) {
            if (!known.contains(name)) {
                throw ApiProblem.invalidRequest("Unknown field '" + Text.printable(name) + "'.");
            }
        }
    }

    static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw ApiProblem.invalidRequest("Field '" + field + "' must be a string.");
        }
        return value.textValue();
    }

    static Long integer(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw ApiProblem.invalidRequest("Field '" + field + "' must be an integer.");
        }
        return value.longValue();
    }

    private static boolean isKnownCurrency(String code) {
        try {
            return Currency.getInstance(code).getCurrencyCode().equals(code);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
