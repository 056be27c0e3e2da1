package com.payorch.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import org.junit.jupiter.api.Test;

/** A request refused for a control character stores nothing: its Idempotency-Key serves the corrected request. */
class ControlCharactersIT extends ApiTest {

    @Test
    void aKeyRefusedForUPlus0000ServesTheCorrectedRequest() {
        String booking = unique("bk");
        String key = unique("key");
        String valid = paymentBody(booking);

        postPayment(DEMO_KEY, key, valid.replace("Room 101", "Room\\u0000101")).exchange()
                .expectStatus().isBadRequest()
                .expectHeader().contentType("application/problem+json")
                .expectBody().jsonPath("$.code").isEqualTo("invalid_request")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("description"));
        assertThat(count("select count(*) from idempotency_keys where merchant_id = 'demo' and idempotency_key = $1",
                key)).isZero();

        postPayment(DEMO_KEY, key, valid.replace("pm_card_ok", "pm_card\\u0000ok")).exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("invalid_request");

        postPayment(DEMO_KEY, key, valid).exchange()
                .expectStatus().isCreated()
                .expectHeader().doesNotExist("Idempotent-Replayed")
                .expectBody().jsonPath("$.bookingId").isEqualTo(booking);
        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
    }

    @Test
    void tabsAndNewlinesAreFreeTextInADescription() {
        String booking = unique("bk");
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking).replace("Room 101, 2 nights", "Room 101\\n\\t2 nights"))
                .exchange()
                .expectStatus().isCreated()
                .expectBody().jsonPath("$.bookingId").isEqualTo(booking);
    }
}
