package com.payorch.idempotency.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.web.ApiProblem;
import com.payorch.web.ProblemCode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdempotencyKeyHeaderTest {

    @Test
    void aQuotedKeyIsTheSameKeyAsItsContent() {
        assertThat(IdempotencyKeyHeader.parse(List.of("\"abc-123\""))).isEqualTo("abc-123");
        assertThat(IdempotencyKeyHeader.parse(List.of("abc-123"))).isEqualTo("abc-123");
    }

    @Test
    void keysOfUpTo255VisibleAsciiCharactersAreAccepted() {
        String longest = "~".repeat(255);
        assertThat(IdempotencyKeyHeader.parse(List.of(longest))).isEqualTo(longest);
        String punctuation = "!#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
        assertThat(IdempotencyKeyHeader.parse(List.of(punctuation))).isEqualTo(punctuation);
    }

    @Test
    void aMissingHeaderIsItsOwnProblem() {
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(null))
                .isInstanceOfSatisfying(ApiProblem.class,
                        p -> assertThat(p.problemCode()).isEqualTo(ProblemCode.IDEMPOTENCY_KEY_MISSING));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "\"\"", "has space", "tab\there", "caf\u00e9", "line\nbreak"})
    void invalidKeysAreRefused(String key) {
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of(key)))
                .isInstanceOfSatisfying(ApiProblem.class,
                        p -> assertThat(p.problemCode()).isEqualTo(ProblemCode.IDEMPOTENCY_KEY_INVALID));
    }

    @Test
    void aKeyOf256CharactersIsRefused() {
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of("k".repeat(256))))
                .isInstanceOfSatisfying(ApiProblem.class,
                        p -> assertThat(p.problemCode()).isEqualTo(ProblemCode.IDEMPOTENCY_KEY_INVALID));
    }

    @Test
    void twoHeadersAreRefused() {
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of("a", "b")))
                .isInstanceOfSatisfying(ApiProblem.class,
                        p -> assertThat(p.problemCode()).isEqualTo(ProblemCode.IDEMPOTENCY_KEY_INVALID));
    }
}
