package com.payorch.gateway;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the API description says about a connector's webhook endpoint; the OpenAPI entry is built from it, so a new
 * connector describes its endpoint in its own folder.
 *
 * @param operationId      the OpenAPI operation id (`receiveStripeWebhook`)
 * @param summary          one line
 * @param description      how it is authenticated and deduplicated, which types it uses
 * @param signatureHeaders the headers that carry the signature (empty when the body carries it)
 * @param bodySchema       the API description's component schema of the body, or null for the connector's own
 *                         format, described in {@code bodyDescription}
 * @param bodyDescription  the body in words when it has no component schema
 * @param signatureFailure how a request with a bad signature is refused; null when each item of the body is signed
 *                         on its own (an item that fails is not applied, the request is still answered)
 */
public record WebhookEndpointDescription(String operationId, String summary, String description,
                                         List<String> signatureHeaders, @Nullable String bodySchema,
                                         String bodyDescription, @Nullable SignatureFailure signatureFailure) {
}
