package com.payorch.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.payorch.statemachine.PaymentStatus;
import com.payorch.statemachine.RefundStatus;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlLiteralsTest {

    @Test
    void anEnumConstantIsItsQuotedName() {
        assertThat(SqlLiterals.of(RefundStatus.SUCCEEDED)).isEqualTo("'SUCCEEDED'");
    }

    /** The same text as the partial indexes' predicates (V6, V22), so PostgreSQL can use them. */
    @Test
    void aSetIsAParenthesisedListInDeclarationOrder() {
        assertThat(SqlLiterals.in(PaymentStatus.UNSETTLED)).isEqualTo("('PENDING', 'PROCESSING')");
        assertThat(SqlLiterals.in(PaymentStatus.LIVE)).isEqualTo(
                "('PENDING', 'PROCESSING', 'REQUIRES_ACTION', 'AUTHORIZED', 'CAPTURING', 'COMPLETED')");
        assertThat(SqlLiterals.in(List.of(PaymentStatus.COMPLETED, PaymentStatus.PENDING)))
                .isEqualTo("('PENDING', 'COMPLETED')");
    }

    @Test
    void anEmptySetIsRefusedRatherThanWrittenAsInvalidSql() {
        assertThatIllegalArgumentException().isThrownBy(() -> SqlLiterals.in(EnumSet.noneOf(PaymentStatus.class)));
    }
}
