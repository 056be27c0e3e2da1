package com.payorch.console.diagram;

import java.util.ArrayList;
import java.util.List;
import com.payorch.console.diagram.DiagramLayout.Box;
import com.payorch.console.diagram.EdgeRouting.EdgeShape;
import com.payorch.console.diagram.EdgeRouting.Point;
import com.payorch.statemachine.LifecycleTransition;

/**
 * How bad a layout reads, for {@link DiagramLayout}'s search: an edge through a box that is neither of its ends, a
 * label on a box or on another label, or off the picture, is an overlap and costs more than anything else; then a
 * label on another edge, then each crossing of two edges, then the height and the length of the edges.
 */
final class LayoutCost {

    /** A rectangle on the picture. */
    record Area(double left, double top, double right, double bottom) {

        boolean overlaps(Area other) {
            return left < other.right && other.left < right && top < other.bottom && other.top < bottom;
        }
    }

    static final double OVERLAP = 10_000;
    private static final double LABEL_ON_EDGE = 200;
    private static final double CROSSING = 60;
    /** A conservative width per character of a 12 px label (wider than the fonts the console names). */
    static final double LABEL_CHAR_WIDTH = 8;

    private LayoutCost() {
    }

    static double of(DiagramLayout layout, List<LifecycleTransition> transitions) {
        return of(layout, transitions, Double.MAX_VALUE);
    }

    /**
     * The cost, or, as soon as the sum so far reaches {@code bound}, that partial sum: enough for a search that only
     * keeps a cheaper layout, and most placements are over the bound after their first few overlaps.
     */
    static double of(DiagramLayout layout, List<LifecycleTransition> transitions, double bound) {
        EdgeRouting routing = new EdgeRouting(layout, transitions);
        int edges = transitions.size();
        List<String> names = new ArrayList<>(layout.boxes().keySet());
        List<Area> boxes = new ArrayList<>(names.size());
        layout.boxes().values().forEach(box -> boxes.add(boxArea(box)));
        List<List<Point>> lines = new ArrayList<>(edges);
        List<Area> labels = new ArrayList<>(edges);
        double cost = 0;
        // Each edge's overlaps as soon as it is routed: they are cheap to find, and most placements are over the
        // bound after their first few edges, before the dearer crossings are counted.
        for (int i = 0; i < edges; i++) {
            LifecycleTransition transition = transitions.get(i);
            EdgeShape shape = routing.route(transition);
            List<Point> line = shape.polyline();
            Area label = labelArea(shape, transition.event());
            lines.add(line);
            labels.add(label);
            for (int b = 0; b < boxes.size(); b++) {
                String state = names.get(b);
                boolean end = state.equals(transition.source()) || state.equals(transition.target());
                if (!end && hits(line, boxes.get(b))) {
                    cost += OVERLAP;
                }
                if (label.overlaps(boxes.get(b))) {
                    cost += OVERLAP;
                }
            }
            if (label.left() < 0 || label.right() > layout.width()) {
                cost += OVERLAP;
            }
            for (int j = 0; j < i; j++) {
                if (label.overlaps(labels.get(j))) {
                    cost += OVERLAP;
                }
            }
            cost += length(line) / 100;
            if (cost >= bound) {
                return cost;
            }
        }
        cost += routing.lowestPoint() / 10.0;
        for (int i = 0; i < edges && cost < bound; i++) {
            Area label = labels.get(i);
            for (int j = 0; j < edges; j++) {
                if (j != i && hits(lines.get(j), label)) {
                    cost += LABEL_ON_EDGE;
                }
                if (j > i && cross(lines.get(i), lines.get(j))) {
                    cost += CROSSING;
                }
            }
        }
        return cost;
    }

    static Area boxArea(Box box) {
        return new Area(box.x(), box.y(), box.right(), box.bottom());
    }

    static Area labelArea(EdgeShape shape, String text) {
        double width = text.length() * LABEL_CHAR_WIDTH;
        double left = switch (shape.labelAnchor()) {
            case "middle" -> shape.labelX() - width / 2;
            case "end" -> shape.labelX() - width;
            default -> shape.labelX();
        };
        return new Area(left, shape.labelY() - 11, left + width, shape.labelY() + 4);
    }

    /** Whether a polyline enters the inside of an area (Liang–Barsky clipping of each segment). */
    static boolean hits(List<Point> polyline, Area area) {
        if (!bounds(polyline).overlaps(area)) {
            return false;
        }
        for (int i = 0; i + 1 < polyline.size(); i++) {
            if (segmentEnters(polyline.get(i), polyline.get(i + 1), area)) {
                return true;
            }
        }
        return false;
    }

    private static boolean segmentEnters(Point a, Point b, Area area) {
        double dx = b.x() - a.x();
        double dy = b.y() - a.y();
        double[] p = {-dx, dx, -dy, dy};
        double[] q = {a.x() - area.left(), area.right() - a.x(), a.y() - area.top(), area.bottom() - a.y()};
        double enter = 0;
        double leave = 1;
        for (int k = 0; k < 4; k++) {
            if (p[k] == 0) {
                if (q[k] <= 0) {
                    return false;
                }
            } else {
                double t = q[k] / p[k];
                if (p[k] < 0) {
                    enter = Math.max(enter, t);
                } else {
                    leave = Math.min(leave, t);
                }
            }
        }
        return enter < leave;
    }

    // Touching counts as overlapping here: a segment along an area's edge is still tested exactly.
    private static Area bounds(List<Point> polyline) {
        double left = Double.MAX_VALUE;
        double top = Double.MAX_VALUE;
        double right = -Double.MAX_VALUE;
        double bottom = -Double.MAX_VALUE;
        for (Point point : polyline) {
            left = Math.min(left, point.x());
            top = Math.min(top, point.y());
            right = Math.max(right, point.x());
            bottom = Math.max(bottom, point.y());
        }
        return new Area(left - 1, top - 1, right + 1, bottom + 1);
    }

    private static double length(List<Point> polyline) {
        double length = 0;
        for (int i = 0; i + 1 < polyline.size(); i++) {
            length += Math.hypot(polyline.get(i + 1).x() - polyline.get(i).x(),
                    polyline.get(i + 1).y() - polyline.get(i).y());
        }
        return length;
    }

    // Two edges that only meet at a box they share do not cross: touching ends are not counted.
    private static boolean cross(List<Point> first, List<Point> second) {
        if (!bounds(first).overlaps(bounds(second))) {
            return false;
        }
        for (int i = 0; i + 1 < first.size(); i++) {
            for (int j = 0; j + 1 < second.size(); j++) {
                if (properlyIntersect(first.get(i), first.get(i + 1), second.get(j), second.get(j + 1))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean properlyIntersect(Point a, Point b, Point c, Point d) {
        double d1 = side(c, d, a);
        double d2 = side(c, d, b);
        double d3 = side(a, b, c);
        double d4 = side(a, b, d);
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
    }

    private static double side(Point a, Point b, Point p) {
        return (b.x() - a.x()) * (p.y() - a.y()) - (b.y() - a.y()) * (p.x() - a.x());
    }
}
