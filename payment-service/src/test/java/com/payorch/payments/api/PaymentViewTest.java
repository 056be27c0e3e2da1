package com.payorch.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.CaptureMethod;
import com.payorch.payments.Attempt;
import com.payorch.payments.AttemptStatus;
import com.payorch.payments.Hold;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentWithHistory;
import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** The hold members of the payment resource, rendered from the payment row alone. */
class PaymentViewTest {

    private static final Instant AUTHORIZED_AT = Instant.parse("2026-11-30T02:14:31.123Z");
    private static final Instant EXPIRES_AT = Instant.parse("2026-12-07T02:14:31.123Z");
    private static final Instant CANCEL_AT = Instant.parse("2026-11-30T03:00:00Z");

    private final PaymentView view = new PaymentView(JsonMapper.builder().build());

    private static Payment payment(PaymentStatus status, Hold hold) {
        return new Payment("pay_1", "demo", "bk_1", 12000, "JPY", "pm_card_ok", null, null, status, null, 1,
                "sandbox", 3, AUTHORIZED_AT, AUTHORIZED_AT, Map.of(), 0, hold);
    }

    private JsonNode render(Payment payment) {
        PaymentWithHistory found = new PaymentWithHistory(payment, List.of(),
                List.of(new Attempt(1, "sandbox", "ch_1", AttemptStatus.AUTHORIZED, null, AUTHORIZED_AT)));
        return new ObjectMapper().readTree(view.render(found));
    }

    private static Hold authorized(Instant cancelRequestedAt) {
        return new Hold(CaptureMethod.MANUAL, 0, null, 0, AUTHORIZED_AT, EXPIRES_AT, cancelRequestedAt,
                cancelRequestedAt == null ? null : "guest_cancelled");
    }

    @Test
    void anAuthorizedHoldShowsWhatMayBeCapturedAndUntilWhen() {
        JsonNode resource = render(payment(PaymentStatus.AUTHORIZED, authorized(null)));

        assertThat(resource.path("captureMethod").asText()).isEqualTo("manual");
        assertThat(resource.path("amountCapturable").asLong()).isEqualTo(12000);
        assertThat(resource.path("amountCaptured").asLong()).isZero();
        assertThat(resource.path("authorizationExpiresAt").asText()).isEqualTo("2026-12-07T02:14:31.123Z");
        assertThat(resource.has("cancelRequestedAt")).isTrue();
        assertThat(resource.path("cancelRequestedAt").isNull()).isTrue();
    }

    @Test
    void aRecordedCancelShowsAndLeavesNothingCapturable() {
        JsonNode resource = render(payment(PaymentStatus.AUTHORIZED, authorized(CANCEL_AT)));

        assertThat(resource.path("cancelRequestedAt").asText()).isEqualTo("2026-11-30T03:00:00.000Z");
        assertThat(resource.path("amountCapturable").asLong()).isZero();
        assertThat(resource.path("authorizationExpiresAt").asText()).isEqualTo("2026-12-07T02:14:31.123Z");
    }

    @ParameterizedTest
    @EnumSource(value = PaymentStatus.class, names = "AUTHORIZED", mode = EnumSource.Mode.EXCLUDE)
    void outsideAuthorizedNothingIsCapturableAndNoExpiryIsShown(PaymentStatus status) {
        Hold hold = status == PaymentStatus.COMPLETED
                ? new Hold(CaptureMethod.MANUAL, 5000, null, 1, AUTHORIZED_AT, EXPIRES_AT, null, null)
                : authorized(null);

        JsonNode resource = render(payment(status, hold));

        assertThat(resource.path("amountCapturable").asLong()).isZero();
        assertThat(resource.path("authorizationExpiresAt").isNull()).as(status.name()).isTrue();
        assertThat(resource.path("amountCaptured").asLong()).isEqualTo(status == PaymentStatus.COMPLETED ? 5000 : 0);
    }

    @Test
    void anAutomaticPaymentSaysSoAndShowsWhatItTook() {
        JsonNode resource = render(new Payment("pay_2", "demo", "bk_2", 12000, "JPY", "pm_card_ok", null, null,
                PaymentStatus.COMPLETED, null, 1, "sandbox", 3, AUTHORIZED_AT, AUTHORIZED_AT, Map.of(), 0));

        assertThat(resource.path("captureMethod").asText()).isEqualTo("automatic");
        assertThat(resource.path("amountCaptured").asLong()).isEqualTo(12000);
        assertThat(resource.path("amountCapturable").asLong()).isZero();
    }
}
