package com.payorch.support;

import java.util.Map;
import org.springframework.r2dbc.core.Parameter;

/**
 * A piece of SQL with the values it binds, so that a package can contribute its part (say, inserting its row) to a
 * single statement another package composes, without either knowing the other's tables.
 */
public record SqlPart(String sql, Map<String, Parameter> values) {

    public SqlPart {
        values = Map.copyOf(values);
    }
}
