package com.payorch.console;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** One line of the console's payment list. */
public record PaymentRow(String id, String merchantId, String bookingId, long amount, String currency, String status,
                         String connector, long amountRefunded, @Nullable String failureReason, Instant createdAt) {
}
