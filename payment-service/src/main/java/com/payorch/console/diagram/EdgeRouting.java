package com.payorch.console.diagram;

import com.payorch.console.diagram.DiagramLayout.Box;
import com.payorch.statemachine.LifecycleTransition;

/**
 * How each transition is drawn on a {@link DiagramLayout}: forward edges (to a later column) as straight lines from
 * the right side of one box to the left side of the other; edges within a column as vertical lines; back edges (to
 * an earlier column, such as FAILED → PENDING) as curves below all the boxes, each further down than the previous,
 * so they never lie on top of a forward edge or of each other.
 */
final class EdgeRouting {

    /** SVG path data and where its label goes. */
    record EdgeShape(String pathData, int labelX, int labelY, String labelAnchor) {
    }

    private static final int LABEL_GAP = 8;
    private static final int FIRST_DIP = 56;
    private static final int DIP_STEP = 36;
    private static final int BACK_EDGE_SHIFT = 18;
    private static final int UPWARD_SHIFT = 30;

    private final DiagramLayout layout;
    private int backEdges;

    EdgeRouting(DiagramLayout layout) {
        this.layout = layout;
    }

    /** Call once per transition, in a fixed order: back edges are stacked in the order they are routed. */
    EdgeShape route(LifecycleTransition transition) {
        Box target = layout.box(transition.target());
        if (transition.source() == null) {
            return straight(layout.initialX() + DiagramLayout.INITIAL_RADIUS, layout.initialY(), target.x(),
                    target.centreY());
        }
        Box source = layout.box(transition.source());
        if (target.column() > source.column()) {
            return straight(source.right(), source.centreY(), target.x(), target.centreY());
        }
        if (target.column() == source.column() && target.row() != source.row()) {
            return vertical(source, target);
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

    // A level line has its label centred above it; a slanted one has it beside its middle, on the side away from
    // the line (to the right of it and above a falling line, below a rising one), so the line never crosses the text.
    private static EdgeShape straight(int x1, int y1, int x2, int y2) {
        String path = "M " + x1 + " " + y1 + " L " + x2 + " " + y2;
        int middleX = (x1 + x2) / 2;
        int middleY = (y1 + y2) / 2;
        if (y1 == y2) {
            return new EdgeShape(path, middleX, middleY - LABEL_GAP, "middle");
        }
        return new EdgeShape(path, middleX + LABEL_GAP, y2 > y1 ? middleY - 4 : middleY + 14, "start");
    }

    private static EdgeShape vertical(Box source, Box target) {
        boolean down = target.row() > source.row();
        int x = down ? source.centreX() : source.centreX() + UPWARD_SHIFT;
        int y1 = down ? source.bottom() : source.y();
        int y2 = down ? target.y() : target.bottom();
        return new EdgeShape("M " + x + " " + y1 + " L " + x + " " + y2, x + LABEL_GAP, (y1 + y2) / 2 + 4, "start");
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
        int middleY = (y1 + y2 + 6 * controlY) / 8;
        return new EdgeShape(path, (x1 + x2) / 2, middleY + LABEL_GAP + 10, "middle");
    }
}
