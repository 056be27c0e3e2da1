package com.payorch.connectors.stripe;

import com.payorch.connectors.PspHttpClients;
import com.stripe.exception.ApiConnectionException;
import com.stripe.exception.StripeException;
import com.stripe.net.HttpContent;
import com.stripe.net.HttpHeaders;
import com.stripe.net.StripeRequest;
import com.stripe.net.StripeResponse;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * stripe-java's transport on the JDK's {@link HttpClient}, which never re-sends a POST by itself. The SDK's default
 * transport (`HttpURLConnection`, without streaming mode) silently re-sends a POST once when the connection is reset
 * or closed after the request went out; if Stripe has charged and then refuses that re-sent connection, the SDK would
 * report "connection refused", which reads as "certainly not charged" and would let the attempt fail over to another
 * connector. Here a reset is a reset (ambiguous), and a `ConnectException` means this request never left.
 */
final class StripeHttpTransport extends com.stripe.net.HttpClient {

    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private final HttpClient client;
    private final Duration readTimeout;

    StripeHttpTransport(Duration connectTimeout, Duration readTimeout) {
        this.client = PspHttpClients.newClient(connectTimeout);
        this.readTimeout = readTimeout;
    }

    @Override
    public StripeResponse request(StripeRequest request) throws StripeException {
        HttpRequest.Builder builder;
        try {
            builder = HttpRequest.newBuilder(request.url().toURI()).timeout(readTimeout);
        } catch (URISyntaxException e) {
            throw new ApiConnectionException("invalid Stripe URL", e);
        }
        request.headers().map().forEach((name, values) -> {
            if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> builder.header(name, value));
            }
        });
        HttpContent content = request.content();
        HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.noBody();
        if (content != null) {
            builder.header("Content-Type", content.contentType());
            body = HttpRequest.BodyPublishers.ofByteArray(content.byteArrayContent());
        }
        builder.method(request.method().name(), body);
        try {
            HttpResponse<String> response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new StripeResponse(response.statusCode(), HttpHeaders.of(response.headers().map()),
                    response.body());
        } catch (IOException e) {
            // ConnectException / UnknownHostException: never sent; HttpTimeoutException, resets: outcome unknown.
            throw new ApiConnectionException("IOException during API request to Stripe: " + e.getClass().getSimpleName(),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiConnectionException("interrupted during API request to Stripe", e);
        }
    }
}
