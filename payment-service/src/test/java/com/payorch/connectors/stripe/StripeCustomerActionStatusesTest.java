package com.payorch.connectors.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Only a `requires_action` PaymentIntent whose action is Stripe's redirect page names a page for the customer. */
class StripeCustomerActionStatusesTest {

    @ParameterizedTest(name = "{0} / {1} / {2} -> {3}")
    @CsvSource(nullValues = "-", value = {
            "requires_action,         redirect_to_url, https://hooks.stripe.com/3ds, https://hooks.stripe.com/3ds",
            "requires_action,         use_stripe_sdk,  -,                            -",
            "requires_action,         redirect_to_url, -,                            -",
            "requires_action,         redirect_to_url, ' ',                          -",
            "requires_action,         -,               -,                            -",
            "succeeded,               redirect_to_url, https://hooks.stripe.com/3ds, -",
            "requires_payment_method, redirect_to_url, https://hooks.stripe.com/3ds, -"})
    void redirectUrl(String status, String type, String url, String expected) {
        assertThat(StripeStatuses.redirectUrl(status, type, url)).isEqualTo(expected);
    }

    @Test
    void aFailedAuthenticationIsFailedWithStripesCode() {
        assertThat(StripeStatuses.charge("requires_payment_method", "payment_intent_authentication_failure", null)
                .failureReason()).isEqualTo("payment_intent_authentication_failure");
    }
}
