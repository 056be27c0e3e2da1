package com.payorch.console.diagram;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import com.payorch.statemachine.LifecycleTransition;

/**
 * Where each state goes: a layered layout with the initial pseudo-state in column 0 and every state in the column of
 * its shortest distance from it (breadth-first over the transitions in declaration order); within a column, states
 * stack in the order they were first reached. Deterministic: the same transitions give the same places.
 */
final class DiagramLayout {

    static final int MARGIN = 24;
    static final int BOX_WIDTH = 140;
    static final int BOX_HEIGHT = 48;
    static final int INITIAL_RADIUS = 9;
    /** Column 0 holds only the small initial circle, so it is narrower than the others. */
    static final int FIRST_COLUMN_WIDTH = 110;
    static final int COLUMN_PITCH = 240;
    static final int ROW_PITCH = 120;

    /** A state's rectangle. */
    record Box(int x, int y, int column, int row) {
        int centreX() {
            return x + BOX_WIDTH / 2;
        }

        int centreY() {
            return y + BOX_HEIGHT / 2;
        }

        int right() {
            return x + BOX_WIDTH;
        }

        int bottom() {
            return y + BOX_HEIGHT;
        }
    }

    private final Map<String, Box> boxes;
    private final int rows;
    private final int columns;

    private DiagramLayout(Map<String, Box> boxes, int rows, int columns) {
        this.boxes = boxes;
        this.rows = rows;
        this.columns = columns;
    }

    static DiagramLayout of(List<LifecycleTransition> transitions) {
        Map<String, Integer> columnOf = columnsByDistance(transitions);
        Map<Integer, Integer> usedRows = new LinkedHashMap<>();
        Map<String, Box> boxes = new LinkedHashMap<>();
        int rows = 1;
        int columns = 1;
        for (Map.Entry<String, Integer> state : columnOf.entrySet()) {
            int column = state.getValue();
            int row = usedRows.merge(column, 1, Integer::sum) - 1;
            boxes.put(state.getKey(), new Box(columnX(column), rowY(row), column, row));
            rows = Math.max(rows, row + 1);
            columns = Math.max(columns, column + 1);
        }
        return new DiagramLayout(boxes, rows, columns);
    }

    // States the initial pseudo-state cannot reach still get drawn, in a column after the reachable ones.
    private static Map<String, Integer> columnsByDistance(List<LifecycleTransition> transitions) {
        Map<String, Integer> columnOf = new LinkedHashMap<>();
        Deque<String> queue = new ArrayDeque<>();
        for (LifecycleTransition transition : transitions) {
            if (transition.isInitial() && columnOf.putIfAbsent(transition.target(), 1) == null) {
                queue.add(transition.target());
            }
        }
        while (!queue.isEmpty()) {
            String state = queue.remove();
            for (LifecycleTransition transition : transitions) {
                if (state.equals(transition.source()) && !columnOf.containsKey(transition.target())) {
                    columnOf.put(transition.target(), columnOf.get(state) + 1);
                    queue.add(transition.target());
                }
            }
        }
        int unreachedColumn = columnOf.values().stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
        List<String> all = new ArrayList<>();
        for (LifecycleTransition transition : transitions) {
            if (transition.source() != null) {
                all.add(transition.source());
            }
            all.add(transition.target());
        }
        all.forEach(state -> columnOf.putIfAbsent(state, unreachedColumn));
        return columnOf;
    }

    private static int columnX(int column) {
        return MARGIN + FIRST_COLUMN_WIDTH + (column - 1) * COLUMN_PITCH;
    }

    private static int rowY(int row) {
        return MARGIN + row * ROW_PITCH;
    }

    /** The states in the order they were placed (breadth-first, then the unreachable ones). */
    Map<String, Box> boxes() {
        return boxes;
    }

    Box box(String state) {
        return Objects.requireNonNull(boxes.get(state), state);
    }

    boolean contains(String state) {
        return boxes.containsKey(state);
    }

    int initialX() {
        return MARGIN + INITIAL_RADIUS;
    }

    int initialY() {
        return rowY(0) + BOX_HEIGHT / 2;
    }

    /** The lowest edge of any state box: back edges curve below it. */
    int statesBottom() {
        return rowY(rows - 1) + BOX_HEIGHT;
    }

    int width() {
        return columnX(columns - 1) + BOX_WIDTH + MARGIN;
    }
}
