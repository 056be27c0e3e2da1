package com.payorch.connectors.braintree;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/** The transport's client: Braintree's own certificate authorities for HTTPS (the default base URL), as the SDK. */
class BraintreeHttpTransportTest {

    @Test
    void anHttpsClientTrustsTheAuthoritiesTheSdkShipsNotTheJdksDefaults() throws Exception {
        HttpClient https = BraintreeHttpTransport.newClient(Duration.ofSeconds(1), true);
        HttpClient http = BraintreeHttpTransport.newClient(Duration.ofSeconds(1), false);

        assertThat(https.sslContext()).isNotSameAs(SSLContext.getDefault());
        assertThat(http.sslContext()).isSameAs(SSLContext.getDefault());
        assertThat(https.followRedirects()).isEqualTo(HttpClient.Redirect.NEVER);
        assertThat(https.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(https.connectTimeout()).contains(Duration.ofSeconds(1));
    }

    @Test
    void theGatewayStartsWithTheDefaultSettings() {
        BraintreeSettings defaults = new BraintreeSettings();

        assertThat(defaults.getBaseUrl().getScheme()).isEqualTo("https");
        assertThat(new BraintreeGateway(defaults, new BraintreeAccounts(),
                reactor.core.scheduler.Schedulers.immediate()).name()).isEqualTo("braintree");
    }
}
