package com.payorch.payments.api;

import com.payorch.gateway.CaptureMethod;
import com.payorch.payments.NewPayment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.payorch.web.ApiProblem;
import com.payorch.web.ProblemCode;
import com.payorch.web.StrictJson;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** The request body rules, without Spring: a plain Bean Validation validator and the service's strict JSON. */
class PaymentRequestParserTest {

    private static final String VALID = """
            {"bookingId": "bk_1001", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok",
             "customerEmail": "guest@example.com", "description": "Room 101, 2 nights"}""";

    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();

    private final PaymentRequestParser parser = new PaymentRequestParser(VALIDATION.getValidator());

    @AfterAll
    static void closeValidation() {
        VALIDATION.close();
    }

    @Test
    void aValidBodyBecomesANewPayment() {
        assertThat(parser.parseCreate(json(VALID))).isEqualTo(new NewPayment("bk_1001", 12000L, "JPY", "pm_card_ok",
                "guest@example.com", "Room 101, 2 nights", java.util.Map.of()));
    }

    @Test
    void customerEmailAndDescriptionMayBeAbsentOrNull() {
        assertThat(parser.parseCreate(json("""
                {"bookingId": "bk_1", "amount": 1, "currency": "USD", "paymentMethod": "pm", "customerEmail": null}""")))
                .isEqualTo(new NewPayment("bk_1", 1L, "USD", "pm", null, null, java.util.Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # what                          | replace                 | with                       | detail
            amount as a string              | 12000                   | "12000"                    | Field 'amount' must be an integer.
            amount with a fraction          | 12000                   | 12000.5                    | Field 'amount' must be an integer.
            amount in exponent form         | 12000                   | 1.2e4                      | Field 'amount' must be an integer.
            amount beyond a long            | 12000                   | 99999999999999999999999    | Field 'amount' must be an integer.
            amount zero                     | 12000                   | 0                          | Field 'amount' must be at least 1.
            amount over the limit           | 12000                   | 100000000001               | Field 'amount' must be at most 100000000000.
            bookingId with a space          | bk_1001                 | bk 1001                    | Field 'bookingId' must be 1-64 characters of A-Z a-z 0-9 _ -.
            bookingId empty                 | bk_1001                 | ''                         | Field 'bookingId' must be 1-64 characters of A-Z a-z 0-9 _ -.
            bookingId an object             | "bk_1001"               | {}                         | Field 'bookingId' must be a string.
            currency lower case             | JPY                     | jpy                        | Field 'currency' must be an upper-case ISO 4217 code.
            currency unknown                | JPY                     | XQZ                        | Field 'currency' must be an ISO 4217 currency code; 'XQZ' is not one.
            currency a number               | "JPY"                   | 392                        | Field 'currency' must be a string.
            paymentMethod empty             | pm_card_ok              | ''                         | Field 'paymentMethod' must be 1-64 characters.
            customerEmail not an address    | guest@example.com       | nobody                     | Field 'customerEmail' must be an e-mail address.
            customerEmail a number          | "guest@example.com"     | 7                          | Field 'customerEmail' must be a string.
            an unknown member               | "amount"                | "tip": 5, "amount"         | Unknown field 'tip'.
            """)
    void aBadFieldIsNamedInTheDetail(String what, String replace, String with, String detail) {
        String body = VALID.replace(replace, with.equals("''") ? "" : with);

        ApiProblem problem = catchThrowableOfType(ApiProblem.class, () -> parser.parseCreate(json(body)));

        assertThat(problem).as(what).isNotNull();
        assertThat(problem.problemCode()).isEqualTo(ProblemCode.INVALID_REQUEST);
        assertThat(problem.detail()).isEqualTo(detail);
    }

    @ParameterizedTest
    @ValueSource(strings = {"bookingId", "amount", "currency", "paymentMethod"})
    void aRequiredFieldMayNotBeMissingOrNull(String field) {
        String withNull = VALID.replaceFirst("\"" + field + "\": [^,]*,", "\"" + field + "\": null,");
        String without = VALID.replaceFirst("\"" + field + "\": [^,]*,", "");

        // The rest of the message is Bean Validation's own, in the JVM's language.
        assertThatThrownBy(() -> parser.parseCreate(json(withNull))).hasMessageStartingWith("Field '" + field + "' ");
        assertThatThrownBy(() -> parser.parseCreate(json(without))).hasMessageStartingWith("Field '" + field + "' ");
        assertThat(withNull).isNotEqualTo(VALID).isNotEqualTo(without);
    }

    @ParameterizedTest
    @CsvSource({"bookingId, bk_1001, 64", "paymentMethod, pm_card_ok, 64", "description, 'Room 101, 2 nights', 500"})
    void textsHaveAMaximumLength(String field, String value, int maximum) {
        String longest = VALID.replace(value, "x".repeat(maximum));
        String tooLong = VALID.replace(value, "x".repeat(maximum + 1));

        assertThat(parser.parseCreate(json(longest))).isNotNull();
        assertThatThrownBy(() -> parser.parseCreate(json(tooLong)))
                .isInstanceOf(ApiProblem.class).hasMessageContaining("'" + field + "'");
    }

    @Test
    void theDescriptionLimitCountsCharactersNotUtf16Units() {
        String fiveHundredEmoji = "😀".repeat(500);

        assertThat(parser.parseCreate(json(VALID.replace("Room 101, 2 nights", fiveHundredEmoji))).description())
                .isEqualTo(fiveHundredEmoji);
    }

    @Test
    void ofSeveralBadFieldsTheFirstByNameIsReported() {
        String body = VALID.replace("12000", "0").replace("bk_1001", "bk 1001");

        assertThatThrownBy(() -> parser.parseCreate(json(body))).hasMessage("Field 'amount' must be at least 1.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "\"hello\"", "12"})
    void onlyAnObjectIsARequest(String body) {
        assertThatThrownBy(() -> parser.parseCreate(json(body))).hasMessage("The request body must be a JSON object.");
        assertThatThrownBy(() -> parser.requireEmptyObject(json(body)))
                .hasMessage("The request body must be a JSON object.");
    }

    @Test
    void theRetryBodyIsAnEmptyObject() {
        parser.requireEmptyObject(json("{}"));

        assertThatThrownBy(() -> parser.requireEmptyObject(json("{\"amount\": 1}")))
                .isInstanceOf(ApiProblem.class).hasMessage("Unknown field 'amount'.");
    }

    @Test
    void captureMethodIsAutomaticByDefaultOrManual() {
        assertThat(parser.parseCreate(json(VALID)).captureMethod()).isEqualTo(CaptureMethod.AUTOMATIC);
        assertThat(parser.parseCreate(json(VALID.replace("}", ", \"captureMethod\": null}"))).captureMethod())
                .isEqualTo(CaptureMethod.AUTOMATIC);
        assertThat(parser.parseCreate(json(VALID.replace("}", ", \"captureMethod\": \"automatic\"}")))
                .captureMethod()).isEqualTo(CaptureMethod.AUTOMATIC);
        assertThat(parser.parseCreate(json(VALID.replace("}", ", \"captureMethod\": \"manual\"}"))))
                .isEqualTo(new NewPayment("bk_1001", 12000L, "JPY", "pm_card_ok", "guest@example.com",
                        "Room 101, 2 nights", java.util.Map.of(), CaptureMethod.MANUAL));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"MANUAL\"", "\"Manual\"", "\"\"", "\"later\"", "1", "true", "[\"manual\"]"})
    void captureMethodIsAutomaticOrManualAndNothingElse(String value) {
        ApiProblem problem = catchThrowableOfType(ApiProblem.class,
                () -> parser.parseCreate(json(VALID.replace("}", ", \"captureMethod\": " + value + "}"))));

        assertThat(problem).isNotNull();
        assertThat(problem.problemCode()).isEqualTo(ProblemCode.INVALID_REQUEST);
        assertThat(problem.detail()).startsWith("Field 'captureMethod' must be");
    }

    private static JsonNode json(String body) {
        return new StrictJson().parse(body.getBytes(StandardCharsets.UTF_8));
    }
}
