package com.payorch.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.r2dbc.spi.R2dbcNonTransientResourceException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * How a failover's errors read. They are built as r2dbc-postgresql and Spring build them: the driver reports a
 * server error of an unspecific class as an {@link R2dbcNonTransientResourceException} carrying the SQLSTATE, which
 * Spring wraps in a {@link DataAccessResourceFailureException}.
 */
class DatabaseErrorsTest {

    @Test
    void aWriteRefusedByAReadOnlyServerIsAnOutageOfTheServerItsConnectionsMustLeave() {
        Throwable refused = new DataAccessResourceFailureException("executeMany; SQL [insert ...]",
                new R2dbcNonTransientResourceException("cannot execute INSERT in a read-only transaction", "25006"));

        assertThat(DatabaseErrors.isUnavailable(refused)).isTrue();
        assertThat(DatabaseErrors.isServerReadOnly(refused)).isTrue();
        assertThat(DatabaseErrors.summary(refused)).endsWith("(SQLSTATE 25006)");
    }

    @Test
    void anotherServerErrorOfTheSameJavaTypeIsNeither() {
        Throwable other = new DataAccessResourceFailureException("executeMany; SQL [insert ...]",
                new R2dbcNonTransientResourceException("invalid transaction termination", "2D000"));

        assertThat(DatabaseErrors.isUnavailable(other)).isFalse();
        assertThat(DatabaseErrors.isServerReadOnly(other)).isFalse();
    }

    @Test
    void noWritablePrimaryAmongTheHostsIsAnOutage() {
        // r2dbc-postgresql's multi-host strategy when every host answered but none is a primary: no cause, no SQLSTATE
        Throwable none = new CannotCreateTransactionException("Could not open R2DBC Connection for transaction",
                new RuntimeException("No server matches target type 'PRIMARY'"));

        assertThat(DatabaseErrors.isUnavailable(none)).isTrue();
        assertThat(DatabaseErrors.isServerReadOnly(none)).isFalse();
    }
}
