package com.payorch.merchantwebhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.jobs.WorkNotifications;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * With the relay and the delivery job polling every 30 s, a payment's events still reach the merchant's webhook-url
 * within seconds: the new events wake the relay, the attempts its planner writes wake the delivery job (both by
 * V13's notifications).
 */
@OwnSchema("merchant_webhook_wake_up_tests")
@TestPropertySource(properties = {
        "payments.merchants.hooks.api-key=" + MerchantWebhookWakeUpIT.HOOKS_KEY,
        "payments.merchants.hooks.webhook-secret=" + MerchantWebhookWakeUpIT.SECRET,
        "payments.outbox.poll-interval=PT30S",
        "payments.merchant-webhooks.poll-interval=PT30S"
})
class MerchantWebhookWakeUpIT extends ApiTest {

    static final String HOOKS_KEY = "sk_test_hooks_wake";
    static final String SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
    private static final MerchantWebhookReceiver RECEIVER = new MerchantWebhookReceiver(SECRET, Duration.ofSeconds(3));

    @DynamicPropertySource
    static void receiver(DynamicPropertyRegistry registry) {
        registry.add("payments.merchants.hooks.webhook-url", RECEIVER::url);
    }

    @Autowired
    WorkNotifications notifications;

    @Test
    void anIdleInstancePushesANewPaymentsEventsToTheMerchantWithoutWaitingForAPoll() {
        await().atMost(Duration.ofSeconds(30)).until(() -> notifications.openings() >= 1);
        long received = notifications.received();
        String booking = unique("bk");
        String body = """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok"}"""
                .formatted(booking);
        postPayment(HOOKS_KEY, unique("key"), body).exchange().expectStatus().isCreated();

        await().atMost(Duration.ofSeconds(6)).until(() -> RECEIVER.receivedFor(booking).size() == 2);
        assertThat(RECEIVER.receivedFor(booking)).extracting(MerchantWebhookReceiver.Received::type)
                .containsExactlyInAnyOrder("payment.created", "payment.processing");
        assertThat(notifications.received()).as("woken by notifications, not by a poll").isGreaterThan(received);
    }
}
