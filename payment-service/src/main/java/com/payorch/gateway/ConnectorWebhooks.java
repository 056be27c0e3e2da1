package com.payorch.gateway;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import reactor.core.publisher.Mono;

/**
 * One connector's part of webhook ingestion, for one endpoint (a merchant's, or the sandbox's); everything after it
 * is the same for every connector (the webhooks module's pipeline: receipt, match to an attempt, apply).
 */
public interface ConnectorWebhooks {

    /**
     * The attempt a notification names when its connector confirms it never made the charge the notification is
     * about (the sandbox knows its charges): no payment has an attempt 0, so the notification changes nothing
     * (200 {@code ignored}, recorded and counted).
     */
    int CHARGE_NEVER_MADE = 0;

    /** The connector's name, as payments' attempts record it. */
    String connector();

    /** The merchant whose endpoint this adapter serves (PSP endpoints are per merchant); null for the sandbox. */
    default @Nullable String merchantId() {
        return null;
    }

    /** How a failed signature check is answered. */
    default SignatureFailure signatureFailure() {
        return SignatureFailure.UNAUTHORIZED;
    }

    /** Checks the signature on the raw bytes, before anything parses them. */
    boolean verify(HttpHeaders headers, byte[] rawBody);

    /**
     * The outcomes a verified body reports (Adyen batches several).
     *
     * @throws RuntimeException the webhooks module's "invalid webhook" refusal when the body is malformed or of an
     *                          unknown type
     */
    List<ConnectorNotification> parse(HttpHeaders headers, byte[] rawBody);

    /**
     * The notifications of a verified body, checked against what the connector itself holds where it can tell (the
     * sandbox looks each charge up in its own records, names its attempt, or {@link #CHARGE_NEVER_MADE}). By
     * default {@link #parse}'s, unchanged.
     */
    default Mono<List<ConnectorNotification>> notifications(HttpHeaders headers, byte[] rawBody) {
        return Mono.fromCallable(() -> parse(headers, rawBody));
    }
}
