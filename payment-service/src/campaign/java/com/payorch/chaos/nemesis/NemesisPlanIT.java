package com.payorch.chaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.chaos.world.World;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The nemesis's schedule is the seed's: the same seed plans the same faults; a long run plans every kind; a short one
 * can plan every fault of the PSPs' word (issue 22); primary failovers come on top, at fixed points (issue 26).
 */
class NemesisPlanIT {

    private static final List<String> INSTANCES = List.of("i1", "i2", "i3");

    @Test
    void theSameSeedPlansTheSameFaultsAndAnotherSeedOthers() {
        List<Nemesis.Planned> plan = Nemesis.plan(42, Duration.ofSeconds(180), INSTANCES);
        assertThat(Nemesis.plan(42, Duration.ofSeconds(180), INSTANCES)).isEqualTo(plan);
        assertThat(Nemesis.plan(43, Duration.ofSeconds(180), INSTANCES)).isNotEqualTo(plan);
        assertThat(plan).hasSizeBetween(180 / 5, 180 / 1);
    }

    @Test
    void everyFaultIsPlannedWithinTheRunOnATargetThatExists() {
        Duration duration = Duration.ofSeconds(1800);
        List<Nemesis.Planned> plan = Nemesis.plan(7, duration, INSTANCES);

        // every fault but the primary failover, which is planned only when asked for (see below)
        assertThat(plan.stream().map(Nemesis.Planned::fault).collect(Collectors.toSet()))
                .isEqualTo(EnumSet.complementOf(EnumSet.of(Fault.PRIMARY_FAILOVER)));
        Set<String> links = INSTANCES.stream().flatMap(i -> World.LINKS.stream().map(link -> i + "." + link))
                .collect(Collectors.toSet());
        assertThat(plan).allSatisfy(planned -> {
            assertThat(planned.atMillis()).isBetween(3_000L, duration.toMillis() - 3_000);
            if (planned.fault() == Fault.ANSWERS_LOST_PAST_GIVE_UP) {
                assertThat(planned.holdMillis()).isGreaterThan(2 * World.GIVE_UP_AFTER.toMillis());
            } else {
                assertThat(planned.holdMillis()).isBetween(1_000L, 7_000L);
            }
            switch (planned.fault()) {
                case KILL_INSTANCE -> assertThat(INSTANCES).contains(planned.target());
                case TERMINATE_BACKENDS, DB_RESTART -> assertThat(planned.target()).isEqualTo("postgres");
                case RECEIVER_DOWN -> assertThat(planned.target()).isEqualTo("receiver");
                case ANSWERS_LOST -> assertThat(planned.target()).matches("i[123]\\.(stripe|adyen)");
                case SMTP_STALL -> assertThat(planned.target()).matches("i[123]\\.smtp");
                case ANSWERS_LOST_PAST_GIVE_UP -> assertThat(planned.target()).matches("stripe|adyen");
                case LATE_SUCCESS_AFTER_GIVE_UP -> assertThat(planned.target()).matches("(stripe|adyen)\\.late");
                case PSP_FORGETS_KEYS -> assertThat(planned.target()).isEqualTo("stripe.keys");
                case REFUND_REVERSED -> assertThat(planned.target()).isEqualTo("psp.refunds");
                default -> assertThat(links).contains(planned.target());
            }
        });
        assertThat(plan).isSortedAccordingTo((a, b) -> Long.compare(a.atMillis(), b.atMillis()));
    }

    @Test
    void failoversAskedForAreSpreadOverTheRunOnTopOfTheSeedsPlan() {
        Duration duration = Duration.ofSeconds(180);
        List<Nemesis.Planned> random = Nemesis.plan(42, duration, INSTANCES);

        List<Nemesis.Planned> two = Nemesis.plan(42, duration, INSTANCES, 2);

        assertThat(two).filteredOn(p -> p.fault() == Fault.PRIMARY_FAILOVER)
                .extracting(Nemesis.Planned::atMillis, Nemesis.Planned::target, Nemesis.Planned::holdMillis)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(60_000L, "postgres", 5_000L),
                        org.assertj.core.groups.Tuple.tuple(120_000L, "postgres", 5_000L));
        assertThat(two).filteredOn(p -> p.fault() != Fault.PRIMARY_FAILOVER).isEqualTo(random);
        assertThat(two).isSortedAccordingTo((a, b) -> Long.compare(a.atMillis(), b.atMillis()));
        assertThat(Nemesis.plan(42, duration, INSTANCES, 1)).filteredOn(p -> p.fault() == Fault.PRIMARY_FAILOVER)
                .extracting(Nemesis.Planned::atMillis).containsExactly(90_000L);
        assertThat(Nemesis.plan(42, duration, INSTANCES, 0)).isEqualTo(random);
    }

    @Test
    void theFaultsOfThePspsWordArePlannedInAShortCampaign() {
        // issue 22: outages past give-up-after, late successes, forgotten keys, reversed refunds
        Set<Fault> pspFaults = EnumSet.of(Fault.ANSWERS_LOST_PAST_GIVE_UP, Fault.LATE_SUCCESS_AFTER_GIVE_UP,
                Fault.PSP_FORGETS_KEYS, Fault.REFUND_REVERSED);
        long seed = java.util.stream.LongStream.rangeClosed(1, 10_000)
                .filter(s -> Nemesis.plan(s, Duration.ofSeconds(180), INSTANCES).stream().map(Nemesis.Planned::fault)
                        .collect(Collectors.toSet()).containsAll(pspFaults))
                .findFirst().orElseThrow();

        List<Nemesis.Planned> plan = Nemesis.plan(seed, Duration.ofSeconds(180), INSTANCES);

        assertThat(plan).extracting(Nemesis.Planned::fault).containsAll(pspFaults);
        assertThat(plan).filteredOn(p -> p.fault() == Fault.ANSWERS_LOST_PAST_GIVE_UP)
                .allSatisfy(p -> assertThat(p.atMillis() + p.holdMillis()).isGreaterThan(
                        p.atMillis() + World.GIVE_UP_AFTER.toMillis()));
        assertThat(plan).filteredOn(p -> p.fault() == Fault.REFUND_REVERSED)
                .allSatisfy(p -> assertThat(p.parameter()).isBetween(1L, 2L));
    }
}
