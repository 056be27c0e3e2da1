package com.payorch.database.failover;

import com.payorch.support.DatabaseErrors;
import io.r2dbc.spi.Result;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Numbers the connections as they are opened and, when one of them meets a read-only server, retires every connection
 * opened so far: the others most likely lead to the same server, and one wasted reconnection costs less than a
 * refused request per pooled connection.
 */
final class ConnectionRetirement {

    private static final Logger log = LoggerFactory.getLogger(ConnectionRetirement.class);

    private final AtomicLong opened = new AtomicLong();
    private final AtomicLong retiredUpTo = new AtomicLong();

    /** The number of a connection just opened. */
    long numberOpened() {
        return opened.incrementAndGet();
    }

    boolean isRetired(long number) {
        return number <= retiredUpTo.get();
    }

    void noticeError(Throwable error) {
        if (DatabaseErrors.isServerReadOnly(error)) {
            retireAllOpened(DatabaseErrors.summary(error));
        }
    }

    /** An error can also arrive as a message segment, which is not an error signal. */
    void noticeSegment(Result.Segment segment) {
        if (segment instanceof Result.Message message
                && DatabaseErrors.READ_ONLY_SQL_TRANSACTION.equals(message.sqlState())) {
            retireAllOpened(message.message());
        }
    }

    private void retireAllOpened(String reason) {
        long upTo = opened.get();
        long before = retiredUpTo.getAndAccumulate(upTo, Math::max);
        if (upTo > before) {
            log.warn("The database server refused a write as read-only ({}): a failover demoted or fenced it; the {}"
                    + " connection(s) opened until now are closed as the pool hands them out, new ones go to the"
                    + " writable primary", reason, upTo - before);
        }
    }
}
