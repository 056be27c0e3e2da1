package com.payorch.connectors;

import java.net.http.HttpClient;
import java.time.Duration;

/**
 * The one way a PSP SDK's transport gets its {@link HttpClient}: HTTP/1.1, the connect time-out, no redirects, and
 * (java.net.http's own behaviour) no silent re-send of a request, so a refused connection can be trusted to mean
 * "not sent".
 */
public final class PspHttpClients {

    private PspHttpClients() {
    }

    public static HttpClient newClient(Duration connectTimeout) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }
}
