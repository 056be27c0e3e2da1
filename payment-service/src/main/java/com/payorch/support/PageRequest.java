package com.payorch.support;

import org.jspecify.annotations.Nullable;

/**
 * Which page of a list: at most `limit` items (1..100) after the item `startingAfter` (the last id of the previous
 * page; null for the first page). Lists are walked by keyset, so items inserted meanwhile never shift a page.
 */
public record PageRequest(int limit, @Nullable String startingAfter) {

    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    public PageRequest {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT);
        }
    }

    public static PageRequest first(int limit) {
        return new PageRequest(limit, null);
    }
}
