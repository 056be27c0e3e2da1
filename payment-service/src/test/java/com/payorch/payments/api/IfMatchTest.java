package com.payorch.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** `If-Match` (RFC 9110 13.1.1): strong comparison; a list in one or several header lines; `*` for any. */
class IfMatchTest {

    @ParameterizedTest(name = "[{0}] | [{1}] against \"3\": {2}")
    @CsvSource(delimiter = '|', value = {
            "\"3\"                 |              | true",
            "W/\"3\"               |              | false",
            "w/\"3\"               |              | false",
            "\"2\", \"3\"          |              | true",
            "\"2\",\"3\"           |              | true",
            "W/\"3\", \"2\"        |              | false",
            "\"2\"                 | \"3\"        | true",
            "\"2\"                 | W/\"3\"      | false",
            "*                      |              | true",
            "\"2\"                 | *            | true",
            "3                      |              | false",
            "\"03\"                |              | false",
            "\"3                    |              | false",
            "\"\"                   |              | false",
            "' , \"3\" ,'           |              | true",
            "\"3\" garbage         |              | false"})
    void matches(String first, String second, boolean expected) {
        List<String> headers = second == null ? List.of(first) : List.of(first, second);
        assertThat(IfMatch.matches(headers, "\"3\"")).isEqualTo(expected);
    }
}
