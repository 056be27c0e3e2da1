package com.payorch.support;

import java.util.List;
import java.util.function.Function;

/** One page of a list: at most `limit` items and whether more follow after the last one. */
public record Page<T>(List<T> data, boolean hasMore) {

    public Page {
        data = List.copyOf(data);
    }

    /** A page from up to `limit + 1` fetched rows: the extra row, if any, only says that more follow. */
    public static <T> Page<T> of(List<T> fetched, int limit) {
        return fetched.size() > limit ? new Page<>(fetched.subList(0, limit), true) : new Page<>(fetched, false);
    }

    public <R> Page<R> map(Function<? super T, ? extends R> mapper) {
        return new Page<>(data.stream().<R>map(mapper).toList(), hasMore);
    }
}
