package com.payorch.console.diagram;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import com.payorch.console.diagram.DiagramLayout.Box;
import com.payorch.statemachine.LifecycleTransition;

/**
 * How each transition is drawn on a {@link DiagramLayout}. Between neighbouring columns, either way, a straight line
 * between the facing sides (a pair of opposite edges between the same two boxes as two parallel lines, the forward
 * one above); within a column between neighbouring rows, a vertical line (the upward one shifted right, a pair's
 * labels one above the other), and past rows between, a curve out into the gap on the right (downward) or the left
 * (upward); anything else (a back edge over several columns, a self-loop)
 * as a curve below all the boxes, each further down than the previous, so they never lie on top of each other.
 */
final class EdgeRouting {

    /** A point of a drawn edge. */
    record Point(double x, double y) {
    }

    /**
     * SVG path data, where its label goes, and the edge as a polyline (the curve sampled) for measuring overlaps.
     */
    record EdgeShape(String pathData, int labelX, int labelY, String labelAnchor, List<Point> polyline) {
    }

    static final int LABEL_GAP = 8;
    private static final int FIRST_DIP = 40;
    private static final int DIP_STEP = 30;
    private static final int BACK_EDGE_SHIFT = 18;
    private static final int UPWARD_SHIFT = 30;
    private static final int PAIR_OFFSET = 14;
    private static final int CURVE_SAMPLES = 24;
    private static final int SIDE_BULGE = 56;

    private final DiagramLayout layout;
    private final List<LifecycleTransition> transitions;
    private int backEdges;

    EdgeRouting(DiagramLayout layout, List<LifecycleTransition> transitions) {
        this.layout = layout;
        this.transitions = List.copyOf(transitions);
    }

    /** Call once per transition, in a fixed order: back edges are stacked in the order they are routed. */
    EdgeShape route(LifecycleTransition transition) {
        Box target = layout.box(transition.target());
        if (transition.source() == null) {
            return straight(layout.initialX() + DiagramLayout.INITIAL_RADIUS, layout.initialY(), target.x(),
                    target.centreY(), false);
        }
        Box source = layout.box(transition.source());
        boolean paired = hasOpposite(transition);
        if (target.column() == source.column() + 1) {
            int shift = paired ? -PAIR_OFFSET : 0;
            return straight(source.right(), source.centreY() + shift, target.x(), target.centreY() + shift, false);
        }
        if (target.column() == source.column() - 1) {
            int shift = paired ? PAIR_OFFSET : 0;
            return straight(source.x(), source.centreY() + shift, target.right(), target.centreY() + shift, paired);
        }
        if (target.column() == source.column() && Math.abs(target.row() - source.row()) == 1) {
            return vertical(source, target, paired);
        }
        if (target.column() == source.column() && target.row() != source.row()) {
            return beside(source, target);
        }
        return below(source, target);
    }

    /** The bottom of the lowest box or back edge label, so the picture is tall enough; call after routing. */
    int lowestPoint() {
        if (backEdges == 0) {
            return layout.statesBottom() + LABEL_GAP;
        }
        return layout.statesBottom() + FIRST_DIP + (backEdges - 1) * DIP_STEP + LABEL_GAP + 14;
    }

    private boolean hasOpposite(LifecycleTransition transition) {
        return transitions.stream().anyMatch(other -> other.source() != null
                && other.source().equals(transition.target()) && Objects.equals(other.target(), transition.source()));
    }

    // A level line has its label above it (below when it is the lower of a pair); a slanted one has it centred on
    // its middle, where the label's halo interrupts the line, which keeps the label between the two columns.
    private static EdgeShape straight(int x1, int y1, int x2, int y2, boolean labelBelow) {
        String path = "M " + x1 + " " + y1 + " L " + x2 + " " + y2;
        List<Point> line = List.of(new Point(x1, y1), new Point(x2, y2));
        int middleX = (x1 + x2) / 2;
        int middleY = (y1 + y2) / 2;
        if (y1 == y2) {
            return new EdgeShape(path, middleX, labelBelow ? middleY + LABEL_GAP + 10 : middleY - LABEL_GAP,
                    "middle", line);
        }
        return new EdgeShape(path, middleX, middleY + 4, "middle", line);
    }

    // A pair's two labels would be side by side at the same height: the downward one goes to the upper half of the
    // gap between the rows, the upward one to the lower half.
    private static EdgeShape vertical(Box source, Box target, boolean paired) {
        boolean down = target.row() > source.row();
        int x = down ? source.centreX() : source.centreX() + UPWARD_SHIFT;
        int y1 = down ? source.bottom() : source.y();
        int y2 = down ? target.y() : target.bottom();
        int gapTop = Math.min(y1, y2);
        int gap = Math.abs(y2 - y1);
        int labelY = !paired ? gapTop + gap / 2 + 4 : down ? gapTop + gap / 3 + 1 : gapTop + gap * 5 / 6 + 1;
        return new EdgeShape("M " + x + " " + y1 + " L " + x + " " + y2, x + LABEL_GAP, labelY, "start",
                List.of(new Point(x, y1), new Point(x, y2)));
    }

    // Within a column past the boxes between: a curve out into the gap beside the column and back (downward on the
    // right, upward on the left, so two of them crossing each other's rows do not share a side), its label beside
    // its outermost point.
    private static EdgeShape beside(Box source, Box target) {
        boolean down = target.row() > source.row();
        int x = down ? source.right() : source.x();
        int y1 = source.centreY() + PAIR_OFFSET;
        int y2 = target.centreY() + PAIR_OFFSET;
        int controlX = down ? x + SIDE_BULGE : x - SIDE_BULGE;
        String path = "M " + x + " " + y1 + " C " + controlX + " " + y1 + " " + controlX + " " + y2 + " " + x + " "
                + y2;
        List<Point> curve = cubic(x, y1, controlX, y1, controlX, y2, x, y2);
        int outermost = SIDE_BULGE * 3 / 4 + LABEL_GAP / 2;
        return new EdgeShape(path, down ? x + outermost : x - outermost, (y1 + y2) / 2 + 4, down ? "start" : "end",
                curve);
    }

    private static List<Point> cubic(double x1, double y1, double cx1, double cy1, double cx2, double cy2, double x2,
                                     double y2) {
        List<Point> curve = new ArrayList<>();
        for (int i = 0; i <= CURVE_SAMPLES; i++) {
            double t = (double) i / CURVE_SAMPLES;
            double u = 1 - t;
            curve.add(new Point(u * u * u * x1 + 3 * u * u * t * cx1 + 3 * u * t * t * cx2 + t * t * t * x2,
                    u * u * u * y1 + 3 * u * u * t * cy1 + 3 * u * t * t * cy2 + t * t * t * y2));
        }
        return curve;
    }

    // A cubic curve that leaves the source's bottom, dips below every box and enters the target from below; a
    // self-loop is the same shape between two points of the same box's bottom.
    private EdgeShape below(Box source, Box target) {
        int dipY = layout.statesBottom() + FIRST_DIP + backEdges * DIP_STEP;
        backEdges++;
        int x1 = source.centreX() - BACK_EDGE_SHIFT;
        int y1 = source.bottom();
        int x2 = target.centreX() + BACK_EDGE_SHIFT;
        int y2 = target.bottom();
        // The curve's lowest point is three quarters of the way from the ends to the control points.
        int controlY = dipY + (dipY - Math.max(y1, y2)) / 3;
        String path = "M " + x1 + " " + y1 + " C " + x1 + " " + controlY + " " + x2 + " " + controlY + " " + x2 + " "
                + y2;
        List<Point> curve = cubic(x1, y1, x1, controlY, x2, controlY, x2, y2);
        int middleY = (y1 + y2 + 6 * controlY) / 8;
        return new EdgeShape(path, (x1 + x2) / 2, middleY + LABEL_GAP + 10, "middle", curve);
    }
}
