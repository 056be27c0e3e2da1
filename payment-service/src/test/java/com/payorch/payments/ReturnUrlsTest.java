package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReturnUrlsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "https://shop.example/back|https://shop.example/back?payment_id=pay_1",
            "https://shop.example/back?order=7|https://shop.example/back?order=7&payment_id=pay_1",
            "https://shop.example/back?|https://shop.example/back?payment_id=pay_1",
            "https://shop.example/back?a=1&|https://shop.example/back?a=1&payment_id=pay_1",
            "https://shop.example/back#done|https://shop.example/back?payment_id=pay_1#done",
            "http://localhost:8080/r?x=1#f|http://localhost:8080/r?x=1&payment_id=pay_1#f"})
    void thePaymentIdIsAddedToTheQueryBeforeAnyFragment(String returnUrl, String expected) {
        assertThat(ReturnUrls.withPaymentId(returnUrl, "pay_1")).isEqualTo(expected);
    }
}
