package com.payorch.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.WebhookAcknowledgement;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import reactor.test.StepVerifier;

/**
 * Issue 22 finding 6: one item of a batch that cannot be applied never stops the others. Driven through the real
 * pipeline with an adapter that hands it a batch of three sandbox notifications, as Adyen batches its items.
 */
class WebhookBatchIsolationIT extends ApiTest {

    private static final byte[] NO_BODY = new byte[0];

    @Autowired
    private WebhookPipeline pipeline;

    @Test
    void aMiddleItemThatFailsUnexpectedlyStopsNeitherNeighbourAndTheBatchIsAskedForAgain() {
        String first = createPayment(unique("bk"), "pm_card_ok");
        String third = createPayment(unique("bk"), "pm_card_ok");
        // A text PostgreSQL cannot store: the middle item's look-up fails in the database, as an outage would.
        ConnectorNotification failing = succeeded(unique("msg"), createPayment(unique("bk"), "pm_card_ok"),
                "ch_broken\u0000");
        List<ConnectorNotification> batch = List.of(succeeded(unique("msg"), first, latestChargeOf(first)), failing,
                succeeded(unique("msg"), third, latestChargeOf(third)));

        StepVerifier.create(pipeline.receive(batchOf(batch), WebhookAcknowledgement.ACCEPTED_TEXT,
                        new HttpHeaders(), NO_BODY))
                .expectError()
                .verify(Duration.ofSeconds(30));

        assertThat(statusOf(first)).isEqualTo("COMPLETED");
        assertThat(statusOf(third)).isEqualTo("COMPLETED");
        // The redelivery of the whole batch finds the applied items' receipts: duplicates, nothing applied twice.
        StepVerifier.create(pipeline.receive(batchOf(List.of(batch.get(0), batch.get(2))),
                        WebhookAcknowledgement.ACCEPTED_TEXT, new HttpHeaders(), NO_BODY))
                .assertNext(outcomes -> assertThat(outcomes).containsExactly(WebhookOutcome.DUPLICATE,
                        WebhookOutcome.DUPLICATE))
                .verifyComplete();
    }

    @Test
    void aMiddleItemAboutAPaymentThisServiceNeverMadeIsSkippedAndTheBatchAccepted() {
        String first = createPayment(unique("bk"), "pm_card_ok");
        String third = createPayment(unique("bk"), "pm_card_ok");
        List<ConnectorNotification> batch = List.of(succeeded(unique("msg"), first, latestChargeOf(first)),
                succeeded(unique("msg"), "pay_" + unique("nobody"), "ch_" + unique("nobody")),
                succeeded(unique("msg"), third, latestChargeOf(third)));

        StepVerifier.create(pipeline.receive(batchOf(batch), WebhookAcknowledgement.ACCEPTED_TEXT,
                        new HttpHeaders(), NO_BODY))
                .assertNext(outcomes -> assertThat(outcomes).contains(WebhookOutcome.APPLIED, WebhookOutcome.APPLIED))
                .verifyComplete();

        assertThat(statusOf(first)).isEqualTo("COMPLETED");
        assertThat(statusOf(third)).isEqualTo("COMPLETED");
    }

    private static ConnectorNotification succeeded(String receiptId, String paymentId, String chargeId) {
        return new ConnectorNotification(receiptId, "payment.succeeded", paymentId, chargeId,
                GatewayStatus.SUCCEEDED, 12000, "JPY", null);
    }

    /** A verified request whose body parses to these notifications. */
    private static ConnectorWebhooks batchOf(List<ConnectorNotification> notifications) {
        return new ConnectorWebhooks() {
            @Override
            public String connector() {
                return "sandbox";
            }

            @Override
            public boolean verify(HttpHeaders headers, byte[] rawBody) {
                return true;
            }

            @Override
            public List<ConnectorNotification> parse(HttpHeaders headers, byte[] rawBody) {
                return notifications;
            }
        };
    }
}
