package com.payorch.console;

import java.util.List;
import org.springframework.web.util.HtmlUtils;

/**
 * A small inline SVG bar chart of {@link Overview.Count}s: per label, a bar for the last day and a thinner one for
 * the last hour, scaled to the largest day count. Drawn on the server, so the page needs no chart script; the
 * figures are also in a table next to it for screen readers.
 */
public final class BarChart {

    private static final int LABEL_WIDTH = 130;
    private static final int BAR_WIDTH = 260;
    private static final int ROW_HEIGHT = 26;

    private BarChart() {
    }

    public static String svg(String title, List<Overview.Count> counts) {
        long max = Math.max(1, counts.stream().mapToLong(Overview.Count::lastDay).max().orElse(1));
        int height = Math.max(1, counts.size()) * ROW_HEIGHT + 24;
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" width=\"")
                .append(LABEL_WIDTH + BAR_WIDTH + 90).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(LABEL_WIDTH + BAR_WIDTH + 90).append(' ').append(height)
                .append("\"><title>").append(HtmlUtils.htmlEscape(title)).append("</title>");
        int y = 4;
        for (Overview.Count count : counts) {
            int day = (int) Math.round(BAR_WIDTH * (double) count.lastDay() / max);
            int hour = (int) Math.round(BAR_WIDTH * (double) count.lastHour() / max);
            svg.append("<text x=\"0\" y=\"").append(y + 15).append("\" class=\"chart-label\">")
                    .append(HtmlUtils.htmlEscape(count.label())).append("</text>")
                    .append("<rect class=\"bar-day\" x=\"").append(LABEL_WIDTH).append("\" y=\"").append(y)
                    .append("\" width=\"").append(Math.max(day, 1)).append("\" height=\"12\"/>")
                    .append("<rect class=\"bar-hour\" x=\"").append(LABEL_WIDTH).append("\" y=\"").append(y + 13)
                    .append("\" width=\"").append(Math.max(hour, count.lastHour() > 0 ? 1 : 0))
                    .append("\" height=\"6\"/>")
                    .append("<text x=\"").append(LABEL_WIDTH + Math.max(day, 1) + 6).append("\" y=\"").append(y + 12)
                    .append("\" class=\"chart-value\">").append(count.lastDay()).append(" / ")
                    .append(count.lastHour()).append("</text>");
            y += ROW_HEIGHT;
        }
        svg.append("<text x=\"0\" y=\"").append(height - 4).append("\" class=\"chart-legend\">")
                .append("long bar: last day · short bar: last hour</text></svg>");
        return svg.toString();
    }
}
