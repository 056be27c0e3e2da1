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

        boolean contains(Point point) {
            return point.x() > left && point.x() < right && point.y() > top && point.y() < bottom;
        }
    }

    static final double OVERLAP = 10_000;
    private static final double LABEL_ON_EDGE = 200;
    private static final double CROSSING = 60;
    private static final double STEP = 4;
    /** A conservative width per character of a 12 px label (wider than the fonts the console names). */
    static final double LABEL_CHAR_WIDTH = 8;

    private LayoutCost() {
    }

    static double of(DiagramLayout layout, List<LifecycleTransition> transitions) {
        EdgeRouting routing = new EdgeRouting(layout, transitions);
        List<EdgeShape> shapes = transitions.stream().map(routing::route).toList();
        List<Area> labels = new ArrayList<>();
        for (int i = 0; i < shapes.size(); i++) {
            labels.add(labelArea(shapes.get(i), transitions.get(i).event()));
        }
        List<List<Point>> dense = shapes.stream().map(shape -> densify(shape.polyline())).toList();
        double cost = 0;
        for (int i = 0; i < transitions.size(); i++) {
            LifecycleTransition transition = transitions.get(i);
            for (var entry : layout.boxes().entrySet()) {
                Area box = boxArea(entry.getValue());
                boolean end = entry.getKey().equals(transition.source()) || entry.getKey().equals(transition.target());
                if (!end && dense.get(i).stream().anyMatch(box::contains)) {
                    cost += OVERLAP;
                }
                if (labels.get(i).overlaps(box)) {
                    cost += OVERLAP;
                }
            }
            if (labels.get(i).left() < 0 || labels.get(i).right() > layout.width()) {
                cost += OVERLAP;
            }
            for (int j = 0; j < transitions.size(); j++) {
                if (j > i && labels.get(i).overlaps(labels.get(j))) {
                    cost += OVERLAP;
                }
                if (j != i && dense.get(j).stream().anyMatch(labels.get(i)::contains)) {
                    cost += LABEL_ON_EDGE;
                }
                if (j > i && cross(shapes.get(i).polyline(), shapes.get(j).polyline())) {
                    cost += CROSSING;
                }
            }
            cost += length(shapes.get(i).polyline()) / 100;
        }
        return cost + routing.lowestPoint() / 10.0;
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

    private static List<Point> densify(List<Point> polyline) {
        List<Point> points = new ArrayList<>();
        for (int i = 0; i + 1 < polyline.size(); i++) {
            Point a = polyline.get(i);
            Point b = polyline.get(i + 1);
            int steps = Math.max(1, (int) Math.ceil(Math.hypot(b.x() - a.x(), b.y() - a.y()) / STEP));
            for (int s = 0; s < steps; s++) {
                double t = (double) s / steps;
                points.add(new Point(a.x() + t * (b.x() - a.x()), a.y() + t * (b.y() - a.y())));
            }
        }
        points.add(polyline.get(polyline.size() - 1));
        return points;
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
