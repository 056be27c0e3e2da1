package com.payorch.connectors.braintree;

import com.braintreegateway.Configuration;
import com.braintreegateway.exceptions.TimeoutException;
import com.braintreegateway.exceptions.UnexpectedException;
import com.braintreegateway.util.Http;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * braintree-java's transport on the JDK's {@link HttpClient}, which never re-sends a POST by itself. The SDK's own
 * transport is `HttpURLConnection` without streaming mode, which silently re-sends a POST once when a kept-alive
 * connection is reset or closed after the request went out: a sale Braintree made could then come back as
 * "connection refused", which reads as "certainly not charged" and would let the attempt fail over. (Streaming mode
 * would stop the re-send but turns a 401 into an `HttpRetryException`.) Only `httpDo` is replaced: the SDK still builds
 * the XML, the headers and the URL, and still reads the answer (`throwExceptionIfErrorStatusCode`, 422 bodies).
 * HTTPS trusts only the certificate authorities the SDK ships for Braintree's hosts, as the SDK does.
 */
final class BraintreeHttpTransport extends Http {

    /** The certificate authorities braintree-java pins for Braintree's API hosts (inside the SDK's jar). */
    static final String[] BRAINTREE_CAS = {"ssl/api_braintreegateway_com.ca.crt",
            "ssl/payments_braintreeapi_com.ca.crt"};

    private final HttpClient client;
    private final Duration readTimeout;

    BraintreeHttpTransport(Configuration configuration, HttpClient client, Duration readTimeout) {
        super(configuration);
        this.client = client;
        this.readTimeout = readTimeout;
    }

    /** The one client of every merchant: HTTP/1.1, the connect time-out, no redirects, Braintree's CAs for HTTPS. */
    static HttpClient newClient(Duration connectTimeout, boolean https) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER);
        if (https) {
            builder.sslContext(braintreeTrust());
        }
        return builder.build();
    }

    private static SSLContext braintreeTrust() {
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null);
            CertificateFactory certificates = CertificateFactory.getInstance("X.509");
            int n = 0;
            for (String name : BRAINTREE_CAS) {
                try (InputStream in = Http.class.getClassLoader().getResourceAsStream(name)) {
                    if (in == null) {
                        throw new IllegalStateException("braintree-java ships no " + name);
                    }
                    for (Certificate certificate : certificates.generateCertificates(in)) {
                        store.setCertificateEntry("braintree-" + n++, certificate);
                    }
                }
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot load Braintree's certificate authorities", e);
        }
    }

    @Override
    protected String httpDo(RequestMethod requestMethod, String url, String postBody, File file,
                            HttpURLConnection connection, Map<String, String> headers, String boundary) {
        if (file != null) {
            throw new UnexpectedException("file uploads are not supported by this transport");
        }
        HttpRequest.Builder builder;
        try {
            builder = HttpRequest.newBuilder(connection.getURL().toURI()).timeout(readTimeout);
        } catch (URISyntaxException e) {
            throw new UnexpectedException("invalid Braintree URL", e);
        } finally {
            connection.disconnect();
        }
        headers.forEach((name, value) -> {
            // identity answers only: no gzip to undo
            if (!name.toLowerCase(Locale.ROOT).equals("accept-encoding")) {
                builder.header(name, value);
            }
        });
        builder.method(requestMethod.name(), postBody == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(postBody));
        HttpResponse<String> response;
        try {
            response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpConnectTimeoutException e) {
            // not connected: never sent (the failure kinds read the ConnectException inside)
            throw new UnexpectedException(e.getMessage(), e);
        } catch (HttpTimeoutException e) {
            throw new TimeoutException(e.getMessage(), e);
        } catch (IOException e) {
            throw new UnexpectedException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnexpectedException("interrupted during the request to Braintree", e);
        }
        throwExceptionIfErrorStatusCode(response.statusCode(), null);
        String body = response.body();
        return body == null || body.isBlank() ? null : body;
    }
}
