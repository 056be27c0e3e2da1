package com.payorch.database;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/** Matches when {@code payments.db.embedded=true}, or when it is absent and {@code spring.r2dbc.url} is not set. */
class OnEmbeddedDatabaseCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Environment environment = context.getEnvironment();
        Boolean embedded = environment.getProperty("payments.db.embedded", Boolean.class);
        if (embedded != null) {
            return new ConditionOutcome(embedded, "payments.db.embedded=" + embedded);
        }
        if (StringUtils.hasText(environment.getProperty("spring.r2dbc.url"))) {
            return ConditionOutcome.noMatch("spring.r2dbc.url is set and payments.db.embedded is absent");
        }
        return ConditionOutcome.match("neither payments.db.embedded nor spring.r2dbc.url is set");
    }
}
