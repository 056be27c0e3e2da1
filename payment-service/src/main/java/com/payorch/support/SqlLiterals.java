package com.payorch.support;

import java.util.Collection;
import java.util.Comparator;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Enum constants as SQL literals, so that a status condition is written from the enum (and its named sets) instead
 * of by hand. Literals rather than binds: PostgreSQL uses a partial index (e.g. {@code payments_unsettled ... where
 * status in ('PENDING', 'PROCESSING')}) only for a condition it can prove from the statement's text, and the text
 * stays the same on every call. Build such strings once, in constants.
 */
public final class SqlLiterals {

    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

    private SqlLiterals() {
    }

    /** {@code 'PENDING'} for {@code PENDING}. */
    public static String of(Enum<?> value) {
        String name = value.name();
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a plain SQL literal: " + name);
        }
        return "'" + name + "'";
    }

    /** {@code ('PENDING', 'PROCESSING')}, in declaration order, for {@code status in ...}. */
    public static <E extends Enum<E>> String in(Collection<E> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("an empty list is not valid SQL: 'in ()'");
        }
        return values.stream()
                .sorted(Comparator.comparingInt(Enum::ordinal))
                .map(SqlLiterals::of)
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
