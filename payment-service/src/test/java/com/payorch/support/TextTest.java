package com.payorch.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TextTest {

    @ParameterizedTest(name = "U+{0} in free text: {1}, elsewhere: {2}")
    @CsvSource({
            "0000, false, false", "0001, false, false", "0007, false, false", "0009, true, false",
            "000A, true, false", "000D, false, false", "001F, false, false", "007F, false, false",
            "0085, false, false", "009F, false, false", "0020, true, true", "00A0, true, true",
            "00E9, true, true", "2028, true, true", "FFFD, true, true", "D800, false, false", "DC00, false, false"})
    void controlCharactersAndUnpairedSurrogatesAreRefused(String hex, boolean inFreeText, boolean elsewhere) {
        String value = "a" + (char) Integer.parseInt(hex, 16) + "b";
        assertThat(Text.isClean(value, true)).isEqualTo(inFreeText);
        assertThat(Text.isClean(value, false)).isEqualTo(elsewhere);
    }

    @ParameterizedTest
    @CsvSource({"Room 101, true", "\uD83D\uDE00 emoji, true", "'', true"})
    void ordinaryTextAndSurrogatePairsPass(String value, boolean clean) {
        assertThat(Text.isClean(value, false)).isEqualTo(clean);
    }

    @ParameterizedTest
    @CsvSource({"a\u0001b, a\\u0001b", "tab\there, tab\\u0009here", "\uD83D\uDE00, \uD83D\uDE00", "x\uD800, x\\uD800"})
    void printableEscapesWhatCannotBeShown(String value, String expected) {
        assertThat(Text.printable(value)).isEqualTo(expected);
    }
}
