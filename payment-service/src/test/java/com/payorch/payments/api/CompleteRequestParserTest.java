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

/** The complete body, without Spring: the service's strict JSON and the parser alone. */
class CompleteRequestParserTest {

    private final CompleteRequestParser parser = new CompleteRequestParser();

    @Test
    void anEmptyObjectAsksTheConnector() {
        assertThat(parser.parse(json("{}"))).isNull();
        assertThat(parser.parse(json("{\"redirectResult\": null}"))).isNull();
    }

    @Test
    void aRedirectResultIsPassedOnAsItIs() {
        assertThat(parser.parse(json("{\"redirectResult\": \"X6XtfGC3!Y...\"}"))).isEqualTo("X6XtfGC3!Y...");
        String longest = "😀".repeat(4096); // characters, not UTF-16 units
        assertThat(parser.parse(json("{\"redirectResult\": \"" + longest + "\"}"))).isEqualTo(longest);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # what                 | body                                   | detail
            a number               | {"redirectResult": 5}                  | Field 'redirectResult' must be a string.
            an object              | {"redirectResult": {"a": "b"}}         | Field 'redirectResult' must be a string.
            empty                  | {"redirectResult": ""}                 | Field 'redirectResult' must be 1-4096 characters; it has 0.
            U+0000                 | {"redirectResult": "a\\u0000b"}        | Field 'redirectResult' must not contain control characters (such as U+0000) or unpaired surrogates.
            a newline              | {"redirectResult": "a\\nb"}            | Field 'redirectResult' must not contain control characters (such as U+0000) or unpaired surrogates.
            an unknown member      | {"redirectResult": "x", "payload": 1}  | Unknown field 'payload'.
            not an object          | "x"                                    | The request body must be a JSON object.
            """)
    void aBadCompleteBodyIsNamedInTheDetail(String what, String body, String detail) {
        ApiProblem problem = catchThrowableOfType(ApiProblem.class, () -> parser.parse(json(body)));

        assertThat(problem).as(what).isNotNull();
        assertThat(problem.problemCode()).isEqualTo(ProblemCode.INVALID_REQUEST);
        assertThat(problem.detail()).isEqualTo(detail);
    }

    @Test
    void aRedirectResultOfMoreThan4096CharactersIsRefused() {
        ApiProblem problem = catchThrowableOfType(ApiProblem.class,
                () -> parser.parse(json("{\"redirectResult\": \"" + "x".repeat(4097) + "\"}")));

        assertThat(problem.detail()).isEqualTo("Field 'redirectResult' must be 1-4096 characters; it has 4097.");
    }

    private static JsonNode json(String body) {
        return new StrictJson().parse(body.getBytes(StandardCharsets.UTF_8));
    }
}
