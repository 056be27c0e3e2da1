package com.payorch.console;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One line of the console's payment list.
 *
 * @param awaitingCustomerSeconds how long a REQUIRES_ACTION payment has waited for its customer (since
 *                                {@code action_required_at}); null in any other status
 */
public record PaymentRow(String id, String merchantId, String bookingId, long amount, String currency, String status,
                         String connector, long amountRefunded, @Nullable String failureReason, Instant createdAt,
                         @Nullable Long awaitingCustomerSeconds) {

    /** The wait as a person reads it, e.g. {@code 1h 05m 09s}; null when the payment is not waiting. */
    public @Nullable String awaitingCustomerFor() {
        if (awaitingCustomerSeconds == null) {
            return null;
        }
        long seconds = Math.max(0, awaitingCustomerSeconds);
        long hours = seconds / 3600;
        long minutes = seconds % 3600 / 60;
        return (hours > 0 ? hours + "h " : "") + (hours > 0 || minutes > 0 ? String.format("%02dm ", minutes) : "")
                + String.format("%02ds", seconds % 60);
    }
}
