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
 * its shortest distance from it (breadth-first over the transitions in declaration order), so every forward edge
 * spans exactly one column. Within the columns, the rows are searched: every placement of each column's states on
 * the rows is routed and measured ({@link LayoutCost}: an edge through a box, a label on a box or on another label,
 * crossings, length; a placement is given up as soon as it costs more than the best so far), and the cheapest
 * wins, the first found on a tie (a bigger life cycle is improved one column at
 * a time instead). Computed once per life cycle. Deterministic: the same transitions give the same places.
 */
final class DiagramLayout {

    static final int MARGIN = 24;
    static final int BOX_WIDTH = 140;
    static final int BOX_HEIGHT = 48;
    static final int INITIAL_RADIUS = 9;
    /** Column 0 holds only the small initial circle, so it is narrower than the others. */
    static final int FIRST_COLUMN_WIDTH = 110;
    /** Wide enough between two boxes for the longest event name centred on an edge. */
    static final int COLUMN_PITCH = 270;
    static final int ROW_PITCH = 110;
    /** Up to this many placements every one is tried; beyond it, one column at a time (see {@link #improved}). */
    private static final int EXHAUSTIVE_PLACEMENTS = 5_000;
    private static final int MAX_SWEEPS = 6;

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
    private final String initialTarget;

    private DiagramLayout(Map<String, Box> boxes, int rows, int columns, String initialTarget) {
        this.boxes = boxes;
        this.rows = rows;
        this.columns = columns;
        this.initialTarget = initialTarget;
    }

    static DiagramLayout of(List<LifecycleTransition> transitions) {
        Map<String, Integer> columnOf = columnsByDistance(transitions);
        Map<Integer, List<String>> byColumn = new LinkedHashMap<>();
        columnOf.forEach((state, column) -> byColumn.computeIfAbsent(column, c -> new ArrayList<>()).add(state));
        int rows = byColumn.values().stream().mapToInt(List::size).max().orElse(1);
        int columns = columnOf.values().stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
        String initialTarget = transitions.stream().filter(LifecycleTransition::isInitial)
                .map(LifecycleTransition::target).findFirst()
                .orElse(columnOf.keySet().iterator().next());
        List<List<int[]>> choices = new ArrayList<>();
        long placements = 1;
        for (List<String> states : byColumn.values()) {
            List<int[]> rowChoices = arrangements(states.size(), rows);
            choices.add(rowChoices);
            placements *= rowChoices.size();
        }
        List<List<String>> columnStates = List.copyOf(byColumn.values());
        if (placements > EXHAUSTIVE_PLACEMENTS) {
            return improved(columnStates, choices, columnOf, rows, columns, initialTarget, transitions);
        }
        DiagramLayout best = null;
        double bestCost = Double.MAX_VALUE;
        int[] index = new int[choices.size()];
        for (long n = 0; n < placements; n++) {
            DiagramLayout candidate = place(columnStates, chosen(choices, index), columnOf, rows, columns,
                    initialTarget);
            double cost = LayoutCost.of(candidate, transitions, bestCost);
            if (cost < bestCost) {
                best = candidate;
                bestCost = cost;
            }
            for (int c = index.length - 1; c >= 0; c--) {
                if (++index[c] < choices.get(c).size()) {
                    break;
                }
                index[c] = 0;
            }
        }
        return Objects.requireNonNull(best);
    }

    /**
     * A bigger life cycle: starting from every column stacked in the order its states were reached, each column in
     * turn takes its cheapest arrangement with the others held, for a few sweeps or until nothing improves. Not always
     * the best placement, but a good one in time linear in the columns.
     */
    private static DiagramLayout improved(List<List<String>> columnStates, List<List<int[]>> choices,
                                          Map<String, Integer> columnOf, int rows, int columns, String initialTarget,
                                          List<LifecycleTransition> transitions) {
        int[] index = new int[choices.size()];
        DiagramLayout best = place(columnStates, chosen(choices, index), columnOf, rows, columns, initialTarget);
        double bestCost = LayoutCost.of(best, transitions);
        for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
            boolean changed = false;
            for (int c = 0; c < index.length; c++) {
                int kept = index[c];
                for (int option = 0; option < choices.get(c).size(); option++) {
                    index[c] = option;
                    DiagramLayout candidate = place(columnStates, chosen(choices, index), columnOf, rows, columns,
                            initialTarget);
                    double cost = LayoutCost.of(candidate, transitions, bestCost);
                    if (cost < bestCost) {
                        best = candidate;
                        bestCost = cost;
                        kept = option;
                        changed = true;
                    }
                }
                index[c] = kept;
            }
            if (!changed) {
                break;
            }
        }
        return best;
    }

    private static List<int[]> chosen(List<List<int[]>> choices, int[] index) {
        List<int[]> chosen = new ArrayList<>();
        for (int c = 0; c < index.length; c++) {
            chosen.add(choices.get(c).get(index[c]));
        }
        return chosen;
    }

    private static DiagramLayout place(List<List<String>> columnStates, List<int[]> rowsChosen,
                                       Map<String, Integer> columnOf, int rows, int columns, String initialTarget) {
        Map<String, Box> boxes = new LinkedHashMap<>();
        for (String state : columnOf.keySet()) {
            for (int c = 0; c < columnStates.size(); c++) {
                int position = columnStates.get(c).indexOf(state);
                if (position >= 0) {
                    int column = columnOf.get(state);
                    int row = rowsChosen.get(c)[position];
                    boxes.put(state, new Box(columnX(column), rowY(row), column, row));
                }
            }
        }
        int usedRows = boxes.values().stream().mapToInt(Box::row).max().orElse(0) + 1;
        return new DiagramLayout(boxes, Math.min(rows, usedRows), columns, initialTarget);
    }

    /** Every way to put {@code states} states on distinct rows of {@code rows}, in lexicographic order. */
    private static List<int[]> arrangements(int states, int rows) {
        List<int[]> all = new ArrayList<>();
        arrange(new int[states], 0, new boolean[rows], all);
        return all;
    }

    private static void arrange(int[] current, int next, boolean[] used, List<int[]> all) {
        if (next == current.length) {
            all.add(current.clone());
            return;
        }
        for (int row = 0; row < used.length; row++) {
            if (!used[row]) {
                used[row] = true;
                current[next] = row;
                arrange(current, next + 1, used, all);
                used[row] = false;
            }
        }
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

    /** The states in the order they were reached (breadth-first, then the unreachable ones). */
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

    /** Level with the state the life cycle starts in, so the creation arrow is straight. */
    int initialY() {
        return box(initialTarget).centreY();
    }

    /** The lowest edge of any state box: back edges curve below it. */
    int statesBottom() {
        return rowY(rows - 1) + BOX_HEIGHT;
    }

    int width() {
        return columnX(columns - 1) + BOX_WIDTH + MARGIN;
    }
}
