package com.payorch.console.diagram;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import com.payorch.console.diagram.DiagramLayout.Box;
import com.payorch.console.diagram.EdgeRouting.EdgeShape;
import com.payorch.statemachine.LifecycleTransition;
import com.payorch.statemachine.PaymentLifecycle;
import com.payorch.statemachine.RefundLifecycle;
import org.jspecify.annotations.Nullable;

/**
 * A life cycle drawn as an accessible, standalone SVG: generated from the state machine module's own transitions
 * (never hand-drawn), laid out in code ({@link DiagramLayout}, {@link EdgeRouting}), with one state marked current
 * and the transitions a payment took marked taken. Immutable and thread-safe; the same arguments always give the
 * same bytes.
 *
 * <p>Markup, for the console's pages and tests: each state is {@code <g class="state" data-state="PENDING">} (class
 * {@code state current} for the current one: filled, thick border, bold label and the word "(current)", so colour
 * is not the only sign); each transition is {@code <g class="transition" data-from="PENDING" data-to="FAILED"
 * data-event="FAIL">} (plus {@code taken} when a step of the path is that move, drawn thicker); the creation
 * transition has class {@code transition initial} and no {@code data-from}. Element ids start with the diagram's
 * name ({@code payment-lifecycle-}, {@code refund-lifecycle-}): embed one diagram of each kind per page.
 */
public final class LifecycleDiagram {

    private static final String SVG_NAMESPACE = "http://www.w3.org/2000/svg";
    private static final int LEGEND_HEIGHT = 32;
    /** From this many characters a 14 px state name may be wider than its box. */
    private static final int LONG_STATE_NAME = 13;

    private static final LifecycleDiagram PAYMENTS = new LifecycleDiagram("payment-lifecycle", "Payment life cycle",
            new PaymentLifecycle().transitions());
    private static final LifecycleDiagram REFUNDS = new LifecycleDiagram("refund-lifecycle", "Refund life cycle",
            new RefundLifecycle().transitions());

    private final String idPrefix;
    private final String title;
    private final List<LifecycleTransition> transitions;
    private final DiagramLayout layout;
    private final List<EdgeShape> shapes;
    private final int lowestEdge;

    private LifecycleDiagram(String idPrefix, String title, List<LifecycleTransition> transitions) {
        this.idPrefix = idPrefix;
        this.title = title;
        this.transitions = List.copyOf(transitions);
        this.layout = DiagramLayout.of(this.transitions);
        EdgeRouting routing = new EdgeRouting(layout, this.transitions);
        this.shapes = this.transitions.stream().map(routing::route).toList();
        this.lowestEdge = routing.lowestPoint();
    }

    /** The payment life cycle ({@link PaymentLifecycle#transitions()}). */
    public static LifecycleDiagram ofPayments() {
        return PAYMENTS;
    }

    /** The refund life cycle ({@link RefundLifecycle#transitions()}). */
    public static LifecycleDiagram ofRefunds() {
        return REFUNDS;
    }

    /**
     * @param currentStatus the status to highlight, e.g. {@code "COMPLETED"}
     * @param path          the steps taken, oldest first ({@code from == null} for the creation); may repeat steps
     *                      (a retried payment passes PENDING → … twice)
     * @return a standalone SVG document (no XML declaration, so it can also be inlined in HTML)
     * @throws IllegalArgumentException when the status is not a state of this life cycle, or a step is not one of
     *                                  its transitions: a history the definition cannot produce is a bug to see,
     *                                  not a picture to draw quietly wrong
     */
    public String svg(String currentStatus, List<TakenStep> path) {
        Objects.requireNonNull(currentStatus, "currentStatus");
        Objects.requireNonNull(path, "path");
        if (!layout.contains(currentStatus)) {
            throw new IllegalArgumentException("Not a state of the " + title.toLowerCase(Locale.ROOT)
                    + ": " + currentStatus);
        }
        Set<TakenStep> taken = new LinkedHashSet<>(path);
        for (TakenStep step : taken) {
            if (transitions.stream().noneMatch(transition -> isStep(transition, step))) {
                throw new IllegalArgumentException("Not a transition of the " + title.toLowerCase(Locale.ROOT)
                        + ": " + (step.from() == null ? "(created)" : step.from()) + " -> " + step.to());
            }
        }
        StringBuilder svg = new StringBuilder(8192);
        int width = layout.width();
        int height = lowestEdge + LEGEND_HEIGHT + DiagramLayout.MARGIN;
        svg.append("<svg xmlns=\"").append(SVG_NAMESPACE).append("\" class=\"lifecycle-diagram\" width=\"")
                .append(width).append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width)
                .append(' ').append(height).append("\" role=\"img\" aria-labelledby=\"").append(idPrefix)
                .append("-title ").append(idPrefix).append("-desc\">\n");
        svg.append("<title id=\"").append(idPrefix).append("-title\">").append(escape(title)).append("</title>\n");
        svg.append("<desc id=\"").append(idPrefix).append("-desc\">")
                .append(escape(description(currentStatus, path))).append("</desc>\n");
        appendStyleAndMarkers(svg);
        appendTransitions(svg, taken);
        appendStates(svg, currentStatus);
        appendLegend(svg, height);
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static boolean isStep(LifecycleTransition transition, TakenStep step) {
        return Objects.equals(transition.source(), step.from()) && transition.target().equals(step.to());
    }

    private String description(String currentStatus, List<TakenStep> path) {
        String description = "Current state: " + currentStatus + ".";
        if (path.isEmpty()) {
            return description;
        }
        List<String> visited = new ArrayList<>();
        for (TakenStep step : path) {
            if (visited.isEmpty() || !visited.get(visited.size() - 1).equals(step.from())) {
                visited.add(step.from() == null ? "created" : step.from());
            }
            visited.add(step.to());
        }
        return description + " Path taken: " + String.join(" → ", visited) + ".";
    }

    // Selectors start with the root class so that, inlined in an HTML page, the rules style nothing else.
    private void appendStyleAndMarkers(StringBuilder svg) {
        String root = ".lifecycle-diagram";
        svg.append("<style>\n")
                .append(root).append(" { background: #ffffff; font-family: system-ui, -apple-system, 'Segoe UI', ")
                .append("Roboto, 'DejaVu Sans', Arial, sans-serif; }\n")
                .append(root).append(" .state rect { fill: #ffffff; stroke: #374151; stroke-width: 1.5; }\n")
                .append(root).append(" .state text { fill: #111827; font-size: 14px; }\n")
                .append(root).append(" .state.current rect { fill: #1e3a8a; stroke: #0b1437; stroke-width: 4; }\n")
                .append(root).append(" .state.current text { fill: #ffffff; font-weight: bold; }\n")
                .append(root).append(" .transition path { fill: none; stroke: #6b7280; stroke-width: 1.5; }\n")
                .append(root).append(" .transition text { fill: #374151; font-size: 12px; paint-order: stroke; ")
                .append("stroke: #ffffff; stroke-width: 4px; stroke-linejoin: round; }\n")
                .append(root).append(" .transition.taken path { stroke: #b45309; stroke-width: 4; }\n")
                .append(root).append(" .transition.taken text { fill: #7c2d12; font-weight: bold; }\n")
                .append(root).append(" .initial-state { fill: #111827; }\n")
                .append(root).append(" .legend { fill: #374151; font-size: 12px; }\n")
                .append("</style>\n");
        svg.append("<defs>\n");
        appendArrowhead(svg, "arrow", "#6b7280", 10);
        appendArrowhead(svg, "arrow-taken", "#b45309", 14);
        svg.append("</defs>\n");
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    }

    private void appendArrowhead(StringBuilder svg, String name, String colour, int size) {
        svg.append("<marker id=\"").append(idPrefix).append('-').append(name)
                .append("\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"")
                .append(size).append("\" markerHeight=\"").append(size).append("\" orient=\"auto\">")
                .append("<path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"").append(colour).append("\"/></marker>\n");
    }

    private void appendTransitions(StringBuilder svg, Set<TakenStep> taken) {
        svg.append("<circle class=\"initial-state\" cx=\"").append(layout.initialX()).append("\" cy=\"")
                .append(layout.initialY()).append("\" r=\"").append(DiagramLayout.INITIAL_RADIUS).append("\"/>\n");
        for (int i = 0; i < transitions.size(); i++) {
            LifecycleTransition transition = transitions.get(i);
            EdgeShape shape = shapes.get(i);
            boolean isTaken = taken.stream().anyMatch(step -> isStep(transition, step));
            svg.append("<g class=\"transition").append(transition.isInitial() ? " initial" : "")
                    .append(isTaken ? " taken" : "").append('"');
            if (transition.source() != null) {
                svg.append(" data-from=\"").append(escape(transition.source())).append('"');
            }
            svg.append(" data-to=\"").append(escape(transition.target())).append("\" data-event=\"")
                    .append(escape(transition.event())).append("\">");
            svg.append("<path d=\"").append(shape.pathData()).append("\" marker-end=\"url(#").append(idPrefix)
                    .append(isTaken ? "-arrow-taken" : "-arrow").append(")\"/>");
            svg.append("<text x=\"").append(shape.labelX()).append("\" y=\"").append(shape.labelY())
                    .append("\" text-anchor=\"").append(shape.labelAnchor()).append("\">")
                    .append(escape(transition.event())).append("</text></g>\n");
        }
    }

    private void appendStates(StringBuilder svg, String currentStatus) {
        for (var entry : layout.boxes().entrySet()) {
            String state = entry.getKey();
            Box box = entry.getValue();
            boolean current = state.equals(currentStatus);
            svg.append("<g class=\"state").append(current ? " current" : "").append("\" data-state=\"")
                    .append(escape(state)).append("\">");
            svg.append("<rect x=\"").append(box.x()).append("\" y=\"").append(box.y()).append("\" width=\"")
                    .append(DiagramLayout.BOX_WIDTH).append("\" height=\"").append(DiagramLayout.BOX_HEIGHT)
                    .append("\" rx=\"8\"/>");
            if (current) {
                svg.append("<text x=\"").append(box.centreX()).append("\" y=\"").append(box.y() + 21)
                        .append("\" text-anchor=\"middle\"").append(fitted(state)).append('>').append(escape(state))
                        .append("</text>");
                svg.append("<text x=\"").append(box.centreX()).append("\" y=\"").append(box.y() + 39)
                        .append("\" text-anchor=\"middle\" font-size=\"12\">(current)</text>");
            } else {
                svg.append("<text x=\"").append(box.centreX()).append("\" y=\"").append(box.centreY() + 5)
                        .append("\" text-anchor=\"middle\"").append(fitted(state)).append('>').append(escape(state))
                        .append("</text>");
            }
            svg.append("</g>\n");
        }
    }

    // A long name (REQUIRES_ACTION, bold when current) would run over its box's border: squeezed to fit inside.
    private static String fitted(String state) {
        return state.length() < LONG_STATE_NAME ? ""
                : " textLength=\"" + (DiagramLayout.BOX_WIDTH - 16) + "\" lengthAdjust=\"spacingAndGlyphs\"";
    }

    private void appendLegend(StringBuilder svg, int height) {
        svg.append("<text class=\"legend\" x=\"").append(DiagramLayout.MARGIN).append("\" y=\"")
                .append(height - DiagramLayout.MARGIN).append("\">")
                .append("Filled box with a thick border: current state. Thick arrows: the path taken.")
                .append("</text>\n");
    }

    static String escape(String text) {
        return text.chars().mapToObj(c -> switch (c) {
            case '&' -> "&amp;";
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '"' -> "&quot;";
            case '\'' -> "&#39;";
            default -> String.valueOf((char) c);
        }).collect(Collectors.joining());
    }
}
