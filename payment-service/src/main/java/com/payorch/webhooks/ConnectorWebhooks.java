package com.payorch.webhooks;

import org.jspecify.annotations.Nullable;
import java.util.List;
import org.springframework.http.HttpHeaders;

/**
 * One connector's part of webhook ingestion; everything after it is the same for every connector
 * ({@link WebhookPipeline}).
 */
public interface ConnectorWebhooks {

    /** The connector's name, as payments' attempts record it. */
    String connector();

    /** The merchant whose endpoint this adapter serves (PSP endpoints are per merchant); null for the sandbox. */
    default @Nullable String merchantId() {
        return null;
    }

    /** What a failed signature check answers: 401 `webhook_signature_invalid` unless the connector says otherwise. */
    default RuntimeException signatureFailure() {
        return new WebhookSignatureInvalid();
    }

    /** Checks the signature on the raw bytes, before anything parses them. */
    boolean verify(HttpHeaders headers, byte[] rawBody);

    /**
     * The outcomes a verified body reports (Adyen batches several).
     *
     * @throws WebhookInvalid when the body is malformed or of an unknown type
     */
    List<ConnectorNotification> parse(HttpHeaders headers, byte[] rawBody);
}
