package com.payorch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.MoneyInvariant.Attempt;
import com.payorch.testsupport.MoneyInvariant.Books;
import com.payorch.testsupport.MoneyInvariant.CaptureAtConnector;
import com.payorch.testsupport.MoneyInvariant.Charge;
import com.payorch.testsupport.MoneyInvariant.ChargeRefund;
import com.payorch.testsupport.MoneyInvariant.ChargeStatus;
import com.payorch.testsupport.MoneyInvariant.Hold;
import com.payorch.testsupport.MoneyInvariant.Kind;
import com.payorch.testsupport.MoneyInvariant.Payment;
import com.payorch.testsupport.MoneyInvariant.Refund;
import com.payorch.testsupport.MoneyInvariant.Violation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The money invariant over hand-made books: a world where it holds (a completed payment with a partial refund, a
 * failed-then-retried payment whose first attempt took money and was given back, a declined charge), then one
 * break per kind of violation, each named with its payment, attempt, connector and reference.
 */
class MoneyInvariantTest {

    // pay_A: COMPLETED at stripe on attempt 1 (pi_A), refunded 300 of 1000.
    // pay_B: COMPLETED at stripe on attempt 2 (pi_B2); attempt 1 (pi_B1) took money late: orphaned, given back.
    // pay_C: FAILED at sandbox, its only charge declined.
    private final List<Payment> payments = new ArrayList<>(List.of(
            new Payment("pay_A", "COMPLETED", 1, "stripe", 1000, 300, 300),
            new Payment("pay_B", "COMPLETED", 2, "stripe", 500, 0, 0),
            new Payment("pay_C", "FAILED", 1, "sandbox", 700, 0, 0)));
    private final List<Attempt> attempts = new ArrayList<>(List.of(
            new Attempt("pay_A", 1, "stripe", "pi_A", false),
            new Attempt("pay_B", 1, "stripe", "pi_B1", true),
            new Attempt("pay_B", 2, "stripe", "pi_B2", false),
            new Attempt("pay_C", 1, "sandbox", "ch_C", false)));
    private final List<Refund> refunds = new ArrayList<>(List.of(
            new Refund("re_A", "pay_A", 1, 300, "SUCCEEDED", "stripe", "pi_A", true),
            new Refund("re_B1", "pay_B", 1, 500, "SUCCEEDED", "stripe", "pi_B1", false)));
    private final List<Charge> charges = new ArrayList<>(List.of(
            charge("stripe", "pi_A", "pay_A", 1, 1000, ChargeStatus.TOOK_MONEY, new ChargeRefund("sr_A", 300, false)),
            charge("stripe", "pi_B1", "pay_B", 1, 500, ChargeStatus.TOOK_MONEY,
                    new ChargeRefund("sr_B1", 500, false)),
            charge("stripe", "pi_B2", "pay_B", 2, 500, ChargeStatus.TOOK_MONEY),
            charge("sandbox", "ch_C", "pay_C", 1, 700, ChargeStatus.DECLINED)));

    private List<Violation> check() {
        return MoneyInvariant.check(charges, new Books(payments, attempts, refunds), true);
    }

    @Test
    void holdsWhenEveryChargeBacksItsPaymentOrWasGivenBackOnce() {
        assertThat(check()).isEmpty();
    }

    @Test
    void aLateSuccessForAFailedPaymentThatNobodyRefundedIsMoneyKept() {
        payments.set(2, new Payment("pay_C", "FAILED", 1, "sandbox", 700, 0, 0));
        charges.set(3, charge("sandbox", "ch_C", "pay_C", 1, 700, ChargeStatus.TOOK_MONEY));

        assertThat(check()).extracting(Violation::kind)
                .containsExactly(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE, Kind.ORPHAN_NOT_GIVEN_BACK_ONCE);
        assertThat(check().get(0)).satisfies(v -> {
            assertThat(v.paymentId()).isEqualTo("pay_C");
            assertThat(v.attempt()).isEqualTo(1);
            assertThat(v.connector()).isEqualTo("sandbox");
            assertThat(v.reference()).isEqualTo("ch_C");
            assertThat(v.toString()).contains("payment FAILED", "0 refunds of it for 0 of 700");
        });
    }

    @Test
    void anOrphanGivenBackTwiceAtTheConnectorFails() {
        charges.set(1, charge("stripe", "pi_B1", "pay_B", 1, 500, ChargeStatus.TOOK_MONEY,
                new ChargeRefund("sr_B1", 500, false), new ChargeRefund("sr_B1bis", 500, false)));

        assertThat(check()).extracting(Violation::kind)
                .containsExactlyInAnyOrder(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE, Kind.OVER_REFUNDED);
    }

    @Test
    void anOrphanWhoseRefundFailedForGoodFails() {
        refunds.set(1, new Refund("re_B1", "pay_B", 1, 500, "FAILED", "stripe", "pi_B1", false));
        charges.set(1, charge("stripe", "pi_B1", "pay_B", 1, 500, ChargeStatus.TOOK_MONEY,
                new ChargeRefund("sr_B1", 500, true)));

        assertThat(check()).extracting(Violation::kind).contains(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE,
                Kind.ORPHAN_REFUND_ROWS);
        assertThat(check()).allMatch(v -> v.paymentId().equals("pay_B") && v.attempt() == 1);
    }

    @Test
    void anOrphanStillRefundingPassesUntilTheWorldHasSettled() {
        refunds.set(1, new Refund("re_B1", "pay_B", 1, 500, "PENDING", "stripe", "pi_B1", false));

        assertThat(MoneyInvariant.check(charges, new Books(payments, attempts, refunds), false)).isEmpty();
        assertThat(check()).extracting(Violation::kind).contains(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE);
    }

    @Test
    void aChargeForAnAttemptTheServiceDoesNotHoldFails() {
        charges.add(charge("stripe", "pi_X", "pay_A", 2, 1000, ChargeStatus.TOOK_MONEY));
        charges.add(charge("stripe", "pi_Y", null, null, 1000, ChargeStatus.PENDING));

        assertThat(check()).extracting(Violation::kind, Violation::reference).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Kind.CHARGE_WITHOUT_ATTEMPT, "pi_X"),
                org.assertj.core.groups.Tuple.tuple(Kind.CHARGE_WITHOUT_ATTEMPT, "pi_Y"));
    }

    @Test
    void aChargeAtAnotherConnectorThanTheAttemptsFails() {
        charges.add(charge("adyen", "PSP1", "pay_A", 1, 1000, ChargeStatus.PENDING));

        assertThat(check()).extracting(Violation::kind).containsExactlyInAnyOrder(
                Kind.CHARGE_AT_ANOTHER_CONNECTOR, Kind.TWO_CHARGES_FOR_ONE_ATTEMPT);
    }

    @Test
    void twoChargesForOneAttemptFailEvenWhenTheSecondIsRefunded() {
        // a PSP that forgot the key charged the same attempt again
        charges.add(charge("stripe", "pi_A2", "pay_A", 1, 1000, ChargeStatus.TOOK_MONEY,
                new ChargeRefund("sr_A2", 1000, false)));

        assertThat(check()).extracting(Violation::kind).contains(Kind.TWO_CHARGES_FOR_ONE_ATTEMPT);
        assertThat(check().get(0).why()).contains("pi_A", "pi_A2");
    }

    @Test
    void aCompletedPaymentWithoutItsChargeFails() {
        charges.remove(2);

        assertThat(check()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Kind.PAYMENT_WITHOUT_ITS_CHARGE);
            assertThat(v.paymentId()).isEqualTo("pay_B");
            assertThat(v.attempt()).isEqualTo(2);
        });
    }

    @Test
    void aChargeThatIsNotTheAttemptsRecordedReferenceBacksNothing() {
        attempts.set(0, new Attempt("pay_A", 1, "stripe", "pi_OTHER", false));

        assertThat(check()).extracting(Violation::kind).contains(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE);
    }

    @Test
    void refundsAboveThePaymentsAmountFail() {
        refunds.add(new Refund("re_A2", "pay_A", 1, 800, "PENDING", "stripe", "pi_A", true));

        assertThat(check()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Kind.OVER_REFUNDED);
            assertThat(v.why()).contains("1100 > amount 1000");
        });
    }

    @Test
    void aPaymentRowThatDisagreesWithItsRefundsFails() {
        payments.set(0, new Payment("pay_A", "COMPLETED", 1, "stripe", 1000, 300, 0));

        assertThat(check()).extracting(Violation::kind).containsExactly(Kind.PAYMENT_ROW_DISAGREES);
    }

    @Test
    void anAutomaticRefundForAnAttemptNotMarkedOrphanedFails() {
        refunds.add(new Refund("re_A9", "pay_A", 1, 1000, "SUCCEEDED", "stripe", "pi_A", false));

        assertThat(check()).extracting(Violation::kind).contains(Kind.ORPHAN_REFUND_ROWS);
    }

    @Test
    void aRefundTheConnectorReversedButTheServiceStillCountsFails() {
        charges.set(0, charge("stripe", "pi_A", "pay_A", 1, 1000, ChargeStatus.TOOK_MONEY,
                new ChargeRefund("sr_A", 300, true)));

        assertThat(check()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Kind.REFUND_NOT_AT_CONNECTOR);
            assertThat(v.reference()).isEqualTo("pi_A");
            assertThat(v.why()).contains("counts 300", "gave back 0");
        });
    }

    // ---- holds (issue 23) -------------------------------------------------------------------------------------------

    // pay_H1: AUTHORIZED at sandbox, the hold open. pay_H2: COMPLETED by a partial capture of 600 of 1000.
    // pay_H3: CANCELLED, its hold released once. pay_H4: CAPTURING, the capture taken at the connector, not heard yet.
    private void addHolds() {
        payments.addAll(List.of(
                new Payment("pay_H1", "AUTHORIZED", 1, "sandbox", 1000, 0, 0, 0),
                new Payment("pay_H2", "COMPLETED", 1, "sandbox", 1000, 200, 200, 600),
                new Payment("pay_H3", "CANCELLED", 1, "sandbox", 1000, 0, 0, 0),
                new Payment("pay_H4", "CAPTURING", 1, "sandbox", 1000, 0, 0, 0)));
        attempts.addAll(List.of(
                new Attempt("pay_H1", 1, "sandbox", "ch_H1", false),
                new Attempt("pay_H2", 1, "sandbox", "ch_H2", false),
                new Attempt("pay_H3", 1, "sandbox", "ch_H3", false),
                new Attempt("pay_H4", 1, "sandbox", "ch_H4", false)));
        refunds.add(new Refund("re_H2", "pay_H2", 1, 200, "SUCCEEDED", "sandbox", "ch_H2", true));
        charges.addAll(List.of(
                hold("ch_H1", "pay_H1", ChargeStatus.HELD, Hold.open()),
                hold("ch_H2", "pay_H2", ChargeStatus.TOOK_MONEY, new Hold(List.of(capture(1, "pay_H2-capture-1", 600,
                        true)), 0), new ChargeRefund("sr_H2", 200, false)),
                hold("ch_H3", "pay_H3", ChargeStatus.RELEASED, new Hold(List.of(), 1)),
                hold("ch_H4", "pay_H4", ChargeStatus.TOOK_MONEY, new Hold(List.of(capture(1, "pay_H4-capture-1", 1000,
                        true)), 0))));
    }

    @Test
    void holdsThatBackTheirPaymentsOrWereReleasedOncePass() {
        addHolds();

        assertThat(check()).isEmpty();
    }

    @Test
    void anAuthorisationCapturedAboveItsAmountFails() {
        addHolds();
        replaceCharge("ch_H2", hold("ch_H2", "pay_H2", ChargeStatus.TOOK_MONEY,
                new Hold(List.of(capture(1, "pay_H2-capture-1", 1200, true)), 0),
                new ChargeRefund("sr_H2", 200, false)));

        assertThat(check()).extracting(Violation::kind)
                .containsExactlyInAnyOrder(Kind.CAPTURED_ABOVE_AUTHORISED, Kind.CAPTURE_DISAGREES);
        assertThat(check()).filteredOn(v -> v.kind() == Kind.CAPTURED_ABOVE_AUTHORISED).singleElement()
                .satisfies(v -> assertThat(v.why()).contains("captured 1200 of 1000 authorised"));
    }

    @Test
    void aPaymentRowCapturingMoreThanItsAmountFails() {
        addHolds();
        payments.set(indexOf("pay_H2"), new Payment("pay_H2", "COMPLETED", 1, "sandbox", 1000, 200, 200, 1100));

        assertThat(check()).extracting(Violation::kind)
                .contains(Kind.CAPTURED_ABOVE_AUTHORISED, Kind.CAPTURE_DISAGREES);
    }

    @Test
    void aCompletedHoldWhoseCapturedAmountIsNotTheConnectorsFails() {
        addHolds();
        payments.set(indexOf("pay_H2"), new Payment("pay_H2", "COMPLETED", 1, "sandbox", 1000, 200, 200, 1000));

        assertThat(check()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Kind.CAPTURE_DISAGREES);
            assertThat(v.paymentId()).isEqualTo("pay_H2");
            assertThat(v.why()).contains("says 1000 captured", "captured 600");
        });
    }

    @Test
    void oneCaptureNumberSentUnderTwoKeysFails() {
        addHolds();
        replaceCharge("ch_H2", hold("ch_H2", "pay_H2", ChargeStatus.TOOK_MONEY, new Hold(List.of(
                capture(1, "pay_H2-capture-1", 600, true), capture(1, "other-key", 600, false)), 0),
                new ChargeRefund("sr_H2", 200, false)));

        assertThat(check()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Kind.CAPTURED_TWICE);
            assertThat(v.why()).contains("capture 1 sent under 2 keys");
        });
    }

    @Test
    void aCaptureUnderAnotherNumbersKeyFails() {
        addHolds();
        replaceCharge("ch_H2", hold("ch_H2", "pay_H2", ChargeStatus.TOOK_MONEY, new Hold(List.of(
                capture(2, "pay_H2-capture-1", 600, true)), 0), new ChargeRefund("sr_H2", 200, false)));

        assertThat(check()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Kind.CAPTURED_TWICE);
            assertThat(v.why()).contains("capture 2 sent under pay_H2-capture-1");
        });
    }

    @Test
    void twoCapturesThatTookMoneyFail() {
        addHolds();
        replaceCharge("ch_H2", hold("ch_H2", "pay_H2", ChargeStatus.TOOK_MONEY, new Hold(List.of(
                capture(1, "pay_H2-capture-1", 300, true), capture(2, "pay_H2-capture-2", 300, true)), 0),
                new ChargeRefund("sr_H2", 200, false)));

        assertThat(check()).extracting(Violation::kind).containsExactly(Kind.CAPTURED_TWICE);
    }

    @Test
    void aCaptureRefusedThenANewOneUnderTheNextNumberPasses() {
        addHolds();
        replaceCharge("ch_H2", hold("ch_H2", "pay_H2", ChargeStatus.TOOK_MONEY, new Hold(List.of(
                capture(1, "pay_H2-capture-1", 600, false), capture(2, "pay_H2-capture-2", 600, true)), 0),
                new ChargeRefund("sr_H2", 200, false)));

        assertThat(check()).isEmpty();
    }

    @Test
    void aHoldReleasedTwiceFails() {
        addHolds();
        replaceCharge("ch_H3", hold("ch_H3", "pay_H3", ChargeStatus.RELEASED, new Hold(List.of(), 2)));

        assertThat(check()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Kind.RELEASED_TWICE);
            assertThat(v.why()).contains("released 2 times");
        });
    }

    @Test
    void aCaptureAndACancelThatBothWonFail() {
        addHolds();
        replaceCharge("ch_H3", hold("ch_H3", "pay_H3", ChargeStatus.TOOK_MONEY,
                new Hold(List.of(capture(1, "pay_H3-capture-1", 1000, true)), 1)));

        assertThat(check()).extracting(Violation::kind).containsExactlyInAnyOrder(Kind.RELEASED_TWICE,
                Kind.ORPHAN_NOT_GIVEN_BACK_ONCE, Kind.ORPHAN_NOT_GIVEN_BACK_ONCE);
        assertThat(check()).allMatch(v -> v.paymentId().equals("pay_H3"));
    }

    @Test
    void aHoldLeftOpenForACancelledPaymentIsMoneyKept() {
        addHolds();
        replaceCharge("ch_H3", hold("ch_H3", "pay_H3", ChargeStatus.HELD, Hold.open()));

        assertThat(check()).extracting(Violation::kind)
                .containsExactly(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE, Kind.ORPHAN_NOT_GIVEN_BACK_ONCE);
        assertThat(check().get(0).why()).contains("payment CANCELLED", "0 of 1000 (an open hold)");
    }

    @Test
    void anOpenHoldOfAFailedPaymentGivenBackByItsOrphanRefundPasses() {
        addHolds();
        payments.set(indexOf("pay_H3"), new Payment("pay_H3", "FAILED", 1, "sandbox", 1000, 0, 0, 0));
        attempts.set(attempts.size() - 2, new Attempt("pay_H3", 1, "sandbox", "ch_H3", true));
        refunds.add(new Refund("re_H3", "pay_H3", 1, 1000, "SUCCEEDED", "sandbox", "ch_H3", false));
        replaceCharge("ch_H3", hold("ch_H3", "pay_H3", ChargeStatus.HELD, Hold.open(),
                new ChargeRefund("sr_H3", 1000, false)));

        assertThat(check()).isEmpty();
    }

    @Test
    void aHoldReleasedAndRefundedTooIsGivenBackTwice() {
        addHolds();
        replaceCharge("ch_H3", hold("ch_H3", "pay_H3", ChargeStatus.RELEASED, new Hold(List.of(), 1),
                new ChargeRefund("sr_H3", 1000, false)));

        assertThat(check()).extracting(Violation::kind)
                .containsExactlyInAnyOrder(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE, Kind.OVER_REFUNDED);
        assertThat(check()).filteredOn(v -> v.kind() == Kind.ORPHAN_NOT_GIVEN_BACK_ONCE).singleElement()
                .satisfies(v -> assertThat(v.why()).contains("released and also refunded 1000"));
        assertThat(check()).filteredOn(v -> v.kind() == Kind.OVER_REFUNDED).singleElement()
                .satisfies(v -> assertThat(v.why()).contains("1000 > captured 0"));
    }

    @Test
    void anAuthorizedPaymentWhoseHoldTheConnectorReleasedFailsOnceSettled() {
        addHolds();
        replaceCharge("ch_H1", hold("ch_H1", "pay_H1", ChargeStatus.RELEASED, new Hold(List.of(), 1)));

        assertThat(MoneyInvariant.check(charges, new Books(payments, attempts, refunds), false))
                .as("a cancel under way: released at the connector, not yet heard").isEmpty();
        assertThat(check()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Kind.PAYMENT_WITHOUT_ITS_CHARGE);
            assertThat(v.why()).contains("AUTHORIZED but its connector holds no charge that holds the money");
        });
    }

    @Test
    void anAuthorizedPaymentWhoseHoldWasCapturedBehindItsBackFails() {
        addHolds();
        replaceCharge("ch_H1", hold("ch_H1", "pay_H1", ChargeStatus.TOOK_MONEY,
                new Hold(List.of(capture(1, "pay_H1-capture-1", 1000, true)), 0)));

        assertThat(check()).extracting(Violation::kind).contains(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE,
                Kind.PAYMENT_WITHOUT_ITS_CHARGE);
    }

    @Test
    void refundsAboveWhatWasCapturedFail() {
        addHolds();
        payments.set(indexOf("pay_H2"), new Payment("pay_H2", "COMPLETED", 1, "sandbox", 1000, 700, 200, 600));
        refunds.add(new Refund("re_H2b", "pay_H2", 1, 500, "PENDING", "sandbox", "ch_H2", true));

        assertThat(check()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Kind.OVER_REFUNDED);
            assertThat(v.why()).contains("700 > captured 600");
        });
    }

    @Test
    void theConnectorRefundingMoreThanItCapturedFails() {
        addHolds();
        replaceCharge("ch_H2", hold("ch_H2", "pay_H2", ChargeStatus.TOOK_MONEY, new Hold(List.of(
                capture(1, "pay_H2-capture-1", 600, true)), 0), new ChargeRefund("sr_H2", 200, false),
                new ChargeRefund("sr_H2b", 500, false)));

        assertThat(check()).extracting(Violation::kind).containsExactly(Kind.OVER_REFUNDED);
        assertThat(check().get(0).why()).contains("700 > captured 600");
    }

    private int indexOf(String paymentId) {
        for (int i = 0; i < payments.size(); i++) {
            if (payments.get(i).id().equals(paymentId)) {
                return i;
            }
        }
        throw new IllegalArgumentException(paymentId);
    }

    private void replaceCharge(String reference, Charge charge) {
        charges.replaceAll(c -> c.reference().equals(reference) ? charge : c);
    }

    private static Charge hold(String reference, String paymentId, ChargeStatus status, Hold hold,
                               ChargeRefund... refunds) {
        return new Charge("sandbox", reference, paymentId, 1, 1000, "USD", status, List.of(refunds), hold);
    }

    private static CaptureAtConnector capture(int number, String key, long amount, boolean tookMoney) {
        return new CaptureAtConnector(number, key, amount, tookMoney);
    }

    @Test
    void attemptsAreReadFromTheAttemptsKey() {
        assertThat(MoneyInvariant.attemptOfKey("pay_1", "pay_1")).isEqualTo(1);
        assertThat(MoneyInvariant.attemptOfKey("pay_1", "pay_1-attempt-3")).isEqualTo(3);
        assertThat(MoneyInvariant.attemptOfKey("pay_1", "pay_2-attempt-3")).isNull();
        assertThat(MoneyInvariant.gaveNothingBack("REFUNDED_REVERSED")).isTrue();
        assertThat(MoneyInvariant.gaveNothingBack("succeeded")).isFalse();
    }

    private static Charge charge(String connector, String reference, String paymentId, Integer attempt, long amount,
                                 ChargeStatus status, ChargeRefund... refunds) {
        return new Charge(connector, reference, paymentId, attempt, amount, "USD", status, List.of(refunds));
    }
}
