package com.payorch.chaos.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.chaos.workload.Plan.Kind;
import com.payorch.chaos.workload.Plan.Step;
import com.payorch.chaos.workload.WorkloadTargets.Merchant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A seed plans the same operations every time; another seed or another client plans others. */
class PlanIT {

    @Test
    void theSameSeedAndClientPlanTheSameSequenceOfOperations() {
        assertThat(steps(42, 3, 500)).isEqualTo(steps(42, 3, 500));
    }

    @Test
    void anotherSeedOrAnotherClientPlansAnotherSequence() {
        assertThat(steps(43, 3, 50)).isNotEqualTo(steps(42, 3, 50));
        assertThat(steps(42, 4, 50)).isNotEqualTo(steps(42, 3, 50));
    }

    @Test
    void everyKindAndEveryVariantIsPlannedInAThousandSteps() {
        List<Step> steps = steps(7, 1, 1_000);
        Map<Kind, Long> kinds = steps.stream().collect(Collectors.groupingBy(Step::kind, Collectors.counting()));
        assertThat(kinds).containsOnlyKeys(Kind.values());
        assertThat(steps.stream().filter(s -> s.kind() == Kind.REFUND).map(Step::variant).distinct())
                .containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(steps.stream().filter(s -> s.kind() == Kind.CREATE).map(Step::variant).distinct())
                .containsExactlyInAnyOrder(0, 1, 2);
        assertThat(steps.stream().filter(s -> s.kind() == Kind.WEBHOOK).map(Step::variant).distinct())
                .containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(steps.stream().filter(s -> s.kind() == Kind.CREATE && s.hotBooking() >= 0).count())
                .as("creates on shared bookings").isGreaterThan(20);
    }

    @Test
    void eachConnectorGetsTokensThatSucceedDeclineAndStayPending() {
        Function<String, List<String>> tokens = routing -> {
            List<String> all = new ArrayList<>();
            for (int roll = 0; roll < 100; roll++) {
                all.add(Workload.paymentMethod(new Merchant("m", "k", routing), roll));
            }
            return all;
        };
        assertThat(tokens.apply("sandbox")).contains("pm_card_ok", "pm_card_declined", "pm_card_refund_fails",
                "pm_card_disputed");
        assertThat(tokens.apply("stripe")).contains("pm_card_visa", "pm_card_chargeDeclined", "pm_card_processing",
                "pm_card_refundFails");
        assertThat(tokens.apply("adyen")).contains("pm_card_visa", "pm_card_chargeDeclined", "pm_card_processing");
        assertThat(tokens.apply("stripe,adyen")).containsOnly("pm_card_visa", "pm_card_chargeDeclined",
                "pm_card_processing");
    }

    @Test
    void aboutOneSandboxCreateInSevenWaitsForItsCustomerWhoAnswersInEveryWayOrWalksAway() {
        Merchant sandbox = new Merchant("m_sandbox", "k", "sandbox");
        List<Step> creates = steps(7, 1, 3_000).stream().filter(s -> s.kind() == Kind.CREATE).toList();
        List<Step> actions = creates.stream().filter(s -> CustomerActions.applies(sandbox, s)).toList();

        assertThat(actions.size() * 100 / creates.size()).as("percent of creates").isBetween(10, 20);
        assertThat(actions).noneMatch(s -> s.share() <= Plan.MANUAL_SHARE);
        assertThat(creates).noneMatch(s -> CustomerActions.applies(new Merchant("m_stripe", "k", "stripe"), s));
        assertThat(CustomerActions.modes(actions)).contains(CustomerActions.Mode.values());
        assertThat(actions).extracting(CustomerActions::paymentMethod)
                .contains("pm_card_3ds", "pm_card_3ds_declined");
        assertThat(actions).extracting(s -> CustomerActions.decision(s, CustomerActions.paymentMethod(s)))
                .contains("approve", "decline");
        assertThat(actions).filteredOn(s -> CustomerActions.paymentMethod(s).equals("pm_card_3ds_declined"))
                .allMatch(s -> CustomerActions.decision(s, "pm_card_3ds_declined").equals("decline"));
    }

    @Test
    void theCustomerReadsTheHiddenTokenWhateverTheOrderOfItsAttributes() {
        assertThat(CustomerActions.token("""
                <form method="post"><input type="hidden" name="token" value="v1.ch_1.abc&amp;d">
                <button id="approve" name="decision" value="approve">Approve</button></form>""")).isEqualTo(
                "v1.ch_1.abc&d");
        assertThat(CustomerActions.token("<input value='t-2' type='hidden' name='token'/>")).isEqualTo("t-2");
        assertThat(CustomerActions.token("<input name=\"other\" value=\"x\">")).isNull();
    }

    private static List<Step> steps(long seed, int client, int count) {
        Plan plan = new Plan(seed, client);
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            steps.add(plan.next());
        }
        return steps;
    }
}
