package com.payorch.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How "needs attention" words the time left to submit a dispute's evidence. */
class DisputeDueInTest {

    @Test
    void daysAndHoursMinutesOrOverdue() {
        assertThat(NeedsAttention.dueIn(3 * 86_400L + 4 * 3600 + 59)).isEqualTo("in 3d 04h");
        assertThat(NeedsAttention.dueIn(2 * 3600L + 5 * 60 + 30)).isEqualTo("in 2h 05m");
        assertThat(NeedsAttention.dueIn(59L)).isEqualTo("in 0m");
        assertThat(NeedsAttention.dueIn(-(2 * 3600L + 60))).isEqualTo("overdue by 2h 01m");
        assertThat(NeedsAttention.dueIn(-(86_400L))).isEqualTo("overdue by 1d 00h");
        assertThat(NeedsAttention.dueIn(null)).isEqualTo("no due date given");
    }
}
