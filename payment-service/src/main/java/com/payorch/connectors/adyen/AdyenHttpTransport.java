package com.payorch.connectors.adyen;

import com.adyen.Config;
import com.adyen.constants.ApiConstants;
import com.adyen.httpclient.ClientInterface;
import com.adyen.httpclient.HTTPClientException;
import com.adyen.model.RequestOptions;
import com.payorch.connectors.PspHttpClients;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The Adyen SDK's transport on the JDK's {@link HttpClient}, which never re-sends a POST by itself (the SDK's default
 * Apache HttpClient 5 re-sends any request answered 429 or 503 once; a refused re-send would then read as "certainly
 * not charged" after an answer the contract calls ambiguous). Sends `x-api-key`, `Idempotency-Key` and JSON; a
 * non-2xx answer is the SDK's {@link HTTPClientException}, which the SDK turns into an `ApiException` with the status.
 */
final class AdyenHttpTransport implements ClientInterface {

    private final HttpClient client;
    private final Duration readTimeout;

    AdyenHttpTransport(Duration connectTimeout, Duration readTimeout) {
        this.client = PspHttpClients.newClient(connectTimeout);
        this.readTimeout = readTimeout;
    }

    @Override
    public String request(String endpoint, String json, Config config) throws IOException, HTTPClientException {
        return request(endpoint, json, config, false, null, ApiConstants.HttpMethod.POST, null);
    }

    @Override
    public String request(String endpoint, String json, Config config, boolean isApiKeyRequired)
            throws IOException, HTTPClientException {
        return request(endpoint, json, config, isApiKeyRequired, null, ApiConstants.HttpMethod.POST, null);
    }

    @Override
    public String request(String endpoint, String json, Config config, boolean isApiKeyRequired,
                          RequestOptions options) throws IOException, HTTPClientException {
        return request(endpoint, json, config, isApiKeyRequired, options, ApiConstants.HttpMethod.POST, null);
    }

    @Override
    public String request(String endpoint, String json, Config config, boolean isApiKeyRequired,
                          RequestOptions options, ApiConstants.HttpMethod method)
            throws IOException, HTTPClientException {
        return request(endpoint, json, config, isApiKeyRequired, options, method, null);
    }

    @Override
    public String request(String endpoint, String json, Config config, boolean isApiKeyRequired,
                          RequestOptions options, ApiConstants.HttpMethod method, Map<String, String> params)
            throws IOException, HTTPClientException {
        String query = params == null || params.isEmpty() ? "" : "?" + params.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(endpoint + query))
                .timeout(readTimeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("User-Agent", "payorch adyen-java-api-library/42.0.0");
        if (config.getApiKey() != null) {
            builder.header("x-api-key", config.getApiKey());
        }
        if (options != null && options.getIdempotencyKey() != null) {
            builder.header("Idempotency-Key", options.getIdempotencyKey());
        }
        ApiConstants.HttpMethod verb = method != null ? method : ApiConstants.HttpMethod.POST;
        HttpRequest.BodyPublisher body = verb == ApiConstants.HttpMethod.GET || verb == ApiConstants.HttpMethod.DELETE
                || json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json);
        builder.method(verb.name(), body);
        HttpResponse<String> response;
        try {
            response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted during the request to Adyen");
        }
        if (response.statusCode() < 200 || response.statusCode() > 299) {
            throw new HTTPClientException("HTTP Exception", response.statusCode(), response.headers().map(),
                    response.body());
        }
        return response.body();
    }
}
