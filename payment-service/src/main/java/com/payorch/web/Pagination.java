package com.payorch.web;

import com.payorch.support.Page;
import com.payorch.support.PageRequest;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The query parameters every list takes (`limit`, `starting_after`) and the shape every list answers
 * (`{"data": […], "has_more": …}`); also RFC 3339 query parameters such as `createdAfter`.
 */
public final class Pagination {

    private Pagination() {
    }

    /** `limit`: an integer 1..100, default 20; `starting_after`: an id (checked against the list by its store). */
    public static PageRequest request(@Nullable String limit, @Nullable String startingAfter) {
        int parsed = PageRequest.DEFAULT_LIMIT;
        if (limit != null) {
            try {
                parsed = Integer.parseInt(limit.trim());
            } catch (NumberFormatException e) {
                parsed = -1;
            }
            if (parsed < 1 || parsed > PageRequest.MAX_LIMIT) {
                throw ApiProblem.invalidRequest("Query parameter 'limit' must be an integer from 1 to "
                        + PageRequest.MAX_LIMIT + ".");
            }
        }
        if (startingAfter != null && (startingAfter.isEmpty() || startingAfter.length() > 255
                || !startingAfter.chars().allMatch(c -> c > 0x20 && c < 0x7f))) {
            throw ApiProblem.invalidRequest("Query parameter 'starting_after' must be the id of an item in this list.");
        }
        return new PageRequest(parsed, startingAfter);
    }

    /** An RFC 3339 timestamp with an offset (`2026-11-30T02:14:31Z`, `…+09:00`), or null when absent. */
    public static @Nullable Instant timestamp(String name, @Nullable String value) {
        if (value == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value.trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw ApiProblem.invalidRequest("Query parameter '" + name
                    + "' must be an RFC 3339 timestamp such as 2026-11-30T02:14:31Z.");
        }
    }

    /** The body of a list response. */
    public static <T> Map<String, Object> body(Page<T> page) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("data", page.data());
        body.put("has_more", page.hasMore());
        return body;
    }

    public static <T> Map<String, Object> body(List<T> data, boolean hasMore) {
        return body(new Page<>(data, hasMore));
    }
}
