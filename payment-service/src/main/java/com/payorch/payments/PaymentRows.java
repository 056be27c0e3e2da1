package com.payorch.payments;

import com.payorch.gateway.CaptureMethod;
import com.payorch.statemachine.PaymentStatus;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.ObjectMapper;

/**
 * How a payment is stored in a row of {@code payments}: its columns, for queries over payments in other modules
 * too (say, recovery's search for stuck payments), read back into a {@link Payment}.
 */
public final class PaymentRows {

    /** The columns a new payment is written with (its capture method and return address last). */
    public static final String INSERT_COLUMNS = """
            id, merchant_id, booking_id, amount, currency, payment_method, customer_email, description, status,
            failure_reason, attempt, connector, version, created_at, updated_at, metadata, capture_method,
            return_url""";

    /** The payment columns {@link #payment(Readable)} reads: the written ones and the hold's. */
    public static final String COLUMNS = INSERT_COLUMNS + """
            , amount_captured, capture_amount, captures, authorized_at, authorization_expires_at,
            cancel_requested_at, cancel_reason, next_action_url, action_required_at""";

    /** Reads and writes the metadata column in {@link #payment(Readable)}, a static reader of rows. */
    private static final ObjectMapper METADATA_JSON = new ObjectMapper();

    private PaymentRows() {
    }

    /** Reads the {@link #COLUMNS} of a row. */
    public static Payment payment(Readable row) {
        return new Payment(row.get("id", String.class), row.get("merchant_id", String.class),
                row.get("booking_id", String.class), row.get("amount", Long.class), row.get("currency", String.class),
                row.get("payment_method", String.class), row.get("customer_email", String.class),
                row.get("description", String.class), PaymentStatus.valueOf(row.get("status", String.class)),
                row.get("failure_reason", String.class), row.get("attempt", Integer.class),
                row.get("connector", String.class), row.get("version", Long.class),
                row.get("created_at", Instant.class), row.get("updated_at", Instant.class),
                metadata(row.get("metadata", Json.class)), amountRefunded(row), hold(row), action(row),
                amountDisputed(row));
    }

    private static CustomerAction action(Readable row) {
        return new CustomerAction(row.get("return_url", String.class), row.get("next_action_url", String.class),
                row.get("action_required_at", Instant.class));
    }

    private static Hold hold(Readable row) {
        return new Hold(CaptureMethod.fromValue(row.get("capture_method", String.class)).orElseThrow(),
                row.get("amount_captured", Long.class), row.get("capture_amount", Long.class),
                row.get("captures", Integer.class), row.get("authorized_at", Instant.class),
                row.get("authorization_expires_at", Instant.class), row.get("cancel_requested_at", Instant.class),
                row.get("cancel_reason", String.class));
    }

    /** `amount_refunded` when the query selected it (those that show the payment do), else 0. */
    private static long amountRefunded(Readable row) {
        if (row instanceof io.r2dbc.spi.Row full && full.getMetadata().contains("amount_refunded")) {
            Long refunded = row.get("amount_refunded", Long.class);
            return refunded == null ? 0 : refunded;
        }
        return 0;
    }

    /** `amount_disputed` when the query selected it (those that show the payment do), else 0. */
    private static long amountDisputed(Readable row) {
        if (row instanceof io.r2dbc.spi.Row full && full.getMetadata().contains("amount_disputed")) {
            Long disputed = row.get("amount_disputed", Long.class);
            return disputed == null ? 0 : disputed;
        }
        return 0;
    }

    private static Map<String, String> metadata(Json json) {
        Map<String, String> metadata = new TreeMap<>();
        if (json != null) {
            METADATA_JSON.readTree(json.asString()).properties()
                    .forEach(member -> metadata.put(member.getKey(), member.getValue().asString()));
        }
        return metadata;
    }

    /** The metadata column's value for a payment's metadata (keys in order). */
    public static Json metadataJson(Map<String, String> metadata) {
        return Json.of(METADATA_JSON.writeValueAsString(new TreeMap<>(metadata)));
    }
}
