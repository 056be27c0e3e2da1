package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/** Defect (issue 8): a PENDING payment whose gateway never answers stayed PENDING forever and blocked its booking. */
@TestPropertySource(properties = {
        "payments.recovery.pending-after=PT0.2S",
        "payments.recovery.give-up-after=PT1S",
        "payments.recovery.interval=PT0.2S",
        "payments.gateway.sandbox.webhook-delay=PT1H",
        "spring.r2dbc.properties.schema=give_up_tests",
        "spring.flyway.schemas=give_up_tests",
        "spring.flyway.default-schema=give_up_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class GiveUpAfterIT extends ApiTest {


    @Test
    void aPaymentTheGatewayNeverAcceptedFailsAsGatewayUnreachableAndFreesItsBooking() {
        String booking = unique("bk");
        String paymentId = createPayment(booking, "pm_card_unavailable");
        assertThat(statusOf(paymentId)).isEqualTo("PENDING");

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "FAILED".equals(statusOf(paymentId)));

        assertThat(count("select count(*) from payments where id = $1 and failure_reason = 'gateway_unreachable'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and status = 'FAILED'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.failed'", paymentId))
                .isEqualTo(1);
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking, "pm_card_ok")).exchange()
                .expectStatus().isCreated();
    }
}
