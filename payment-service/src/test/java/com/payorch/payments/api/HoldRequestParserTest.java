package com.payorch.payments.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.payorch.web.ApiProblem;
import com.payorch.web.ProblemCode;
import com.payorch.web.StrictJson;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** The capture and cancel bodies, without Spring: the service's strict JSON and the parser alone. */
class HoldRequestParserTest {

    private final HoldRequestParser parser = new HoldRequestParser();

    @Test
    void aCaptureWithoutAnAmountTakesAllThatIsCapturable() {
        assertThat(parser.parseCapture(json("{}"))).isNull();
        assertThat(parser.parseCapture(json("{\"amount\": null}"))).isNull();
    }

    @Test
    void aCaptureAmountIsAnIntegerFromOneToTheCreateLimit() {
        assertThat(parser.parseCapture(json("{\"amount\": 1}"))).isEqualTo(1L);
        assertThat(parser.parseCapture(json("{\"amount\": 100000000000}"))).isEqualTo(100_000_000_000L);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # what                 | body                             | detail
            zero                   | {"amount": 0}                    | Field 'amount' must be an integer from 1 to 100000000000; it is 0.
            negative               | {"amount": -5}                   | Field 'amount' must be an integer from 1 to 100000000000; it is -5.
            over the limit         | {"amount": 100000000001}         | Field 'amount' must be an integer from 1 to 100000000000; it is 100000000001.
            a fraction             | {"amount": 10.5}                 | Field 'amount' must be an integer.
            exponent form          | {"amount": 1e3}                  | Field 'amount' must be an integer.
            a string               | {"amount": "100"}                | Field 'amount' must be an integer.
            beyond a long          | {"amount": 99999999999999999999} | Field 'amount' must be an integer.
            an unknown member      | {"amount": 1, "reason": "x"}     | Unknown field 'reason'.
            not an object          | [1]                              | The request body must be a JSON object.
            """)
    void aBadCaptureBodyIsNamedInTheDetail(String what, String body, String detail) {
        ApiProblem problem = catchThrowableOfType(ApiProblem.class, () -> parser.parseCapture(json(body)));

        assertThat(problem).as(what).isNotNull();
        assertThat(problem.problemCode()).isEqualTo(ProblemCode.INVALID_REQUEST);
        assertThat(problem.detail()).isEqualTo(detail);
    }

    @Test
    void aCancelReasonIsOptionalAndUpTo200Characters() {
        assertThat(parser.parseCancel(json("{}"))).isNull();
        assertThat(parser.parseCancel(json("{\"reason\": \"guest changed plans\"}"))).isEqualTo("guest changed plans");
        String longest = "😀".repeat(200); // characters, not UTF-16 units
        assertThat(parser.parseCancel(json("{\"reason\": \"" + longest + "\"}"))).isEqualTo(longest);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # what                 | body                                   | detail
            a number               | {"reason": 5}                          | Field 'reason' must be a string.
            U+0000                 | {"reason": "a\\u0000b"}                | Field 'reason' must not contain control characters (such as U+0000) or unpaired surrogates.
            a newline              | {"reason": "a\\nb"}                    | Field 'reason' must not contain control characters (such as U+0000) or unpaired surrogates.
            an unknown member      | {"reason": "x", "amount": 1}           | Unknown field 'amount'.
            """)
    void aBadCancelBodyIsNamedInTheDetail(String what, String body, String detail) {
        ApiProblem problem = catchThrowableOfType(ApiProblem.class, () -> parser.parseCancel(json(body)));

        assertThat(problem).as(what).isNotNull();
        assertThat(problem.problemCode()).isEqualTo(ProblemCode.INVALID_REQUEST);
        assertThat(problem.detail()).isEqualTo(detail);
    }

    @Test
    void aCancelReasonOfMoreThan200CharactersIsRefused() {
        ApiProblem problem = catchThrowableOfType(ApiProblem.class,
                () -> parser.parseCancel(json("{\"reason\": \"" + "x".repeat(201) + "\"}")));

        assertThat(problem.detail()).isEqualTo("Field 'reason' must be at most 200 characters.");
    }

    private static JsonNode json(String body) {
        return new StrictJson().parse(body.getBytes(StandardCharsets.UTF_8));
    }
}
