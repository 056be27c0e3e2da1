package com.payorch.web;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import org.springframework.stereotype.Component;

/**
 * Parses request bodies strictly (duplicate members, trailing data and malformed UTF-8 are errors) and renders
 * the canonical form used in idempotency fingerprints: members sorted, no insignificant whitespace.
 */
@Component
public class StrictJson {

    private final JsonMapper mapper = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .build();

    /** Parses a whole body as one JSON value; an empty body is refused. */
    public JsonNode parse(byte[] body) {
        if (body.length == 0) {
            throw ApiProblem.invalidRequest("The request body is empty; send a JSON object.");
        }
        try {
            JsonNode node = mapper.readTree(body);
            if (node == null || node.isMissingNode()) {
                throw ApiProblem.invalidRequest("The request body is empty; send a JSON object.");
            }
            return node;
        } catch (JacksonException e) {
            throw ApiProblem.invalidRequest("The request body is not valid JSON" + where(e) + ".");
        } catch (NumberFormatException | ArithmeticException e) {
            // Jackson's BigDecimal parser refuses exponents beyond an int (1E+2147483648) with a plain
            // NumberFormatException, not a JacksonException
            throw ApiProblem.invalidRequest("The request body holds a number out of any usable range.");
        }
    }

    // Jackson's own messages can name internal classes, so only the position is passed on.
    private static String where(JacksonException e) {
        var location = e.getLocation();
        if (location == null || location.getLineNr() < 0) {
            return "";
        }
        return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }

    /** Canonical JSON: object members sorted by name, no insignificant whitespace. */
    public byte[] canonical(JsonNode node) {
        return mapper.writeValueAsBytes(node);
    }
}
