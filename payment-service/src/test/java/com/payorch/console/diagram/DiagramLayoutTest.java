package com.payorch.console.diagram;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import com.payorch.console.diagram.DiagramLayout.Box;
import com.payorch.statemachine.LifecycleTransition;
import com.payorch.statemachine.PaymentLifecycle;

/**
 * The layout's search: the payment life cycle, every placement tried, has nothing on top of anything else; a life
 * cycle too big to try every placement of (60,000 here) is improved one column at a time and still placed at once,
 * every state in a place of its own, so a bigger definition never stalls the console's first payment page.
 */
class DiagramLayoutTest {

    @Test
    void thePaymentLifeCycleIsPlacedWithoutAnOverlap() {
        List<LifecycleTransition> transitions = new PaymentLifecycle().transitions();

        assertThat(LayoutCost.of(DiagramLayout.of(transitions), transitions)).isLessThan(LayoutCost.OVERLAP);
    }

    @Test
    void aLifeCycleTooBigToTryEveryPlacementIsStillPlacedPromptly() {
        List<LifecycleTransition> transitions = new ArrayList<>(new PaymentLifecycle().transitions());
        transitions.add(new LifecycleTransition("PENDING", "REQUIRE_ACTION", "REQUIRES_ACTION"));
        transitions.add(new LifecycleTransition("REQUIRES_ACTION", "ACTION_DONE", "PROCESSING"));
        transitions.add(new LifecycleTransition("REQUIRES_ACTION", "FAIL", "FAILED"));
        transitions.add(new LifecycleTransition("PENDING", "EXPIRE", "EXPIRED"));
        transitions.add(new LifecycleTransition("AUTHORIZED", "EXPIRE", "EXPIRED"));

        long started = System.nanoTime();
        DiagramLayout layout = DiagramLayout.of(transitions);
        long millis = (System.nanoTime() - started) / 1_000_000;

        assertThat(layout.boxes()).hasSize(9);
        assertThat(layout.boxes().values()).extracting(Box::x, Box::y).doesNotHaveDuplicates();
        assertThat(layout.box("EXPIRED").column()).isEqualTo(2);
        assertThat(millis).as("placed in %d ms", millis).isLessThan(5_000);
    }
}
