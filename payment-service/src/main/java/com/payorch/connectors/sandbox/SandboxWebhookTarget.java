package com.payorch.connectors.sandbox;

import java.net.URI;
import java.util.Optional;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/** Where the sandbox sends its webhooks: `webhook-url`, else this service's own endpoint once its port is known. */
@Component
class SandboxWebhookTarget implements ApplicationListener<ReactiveWebServerInitializedEvent> {

    static final String OWN_PATH = "/v1/webhooks/sandbox";

    private final URI configured;
    private volatile URI own;

    SandboxWebhookTarget(SandboxGatewayProperties properties) {
        this.configured = properties.webhookUrl();
    }

    @Override
    public void onApplicationEvent(ReactiveWebServerInitializedEvent event) {
        // A separate management server announces itself too, under its own namespace; only the API server counts.
        if (event.getApplicationContext().getServerNamespace() == null) {
            own = URI.create("http://localhost:" + event.getWebServer().getPort() + OWN_PATH);
        }
    }

    /** Empty until the server has started, unless `webhook-url` is set. */
    Optional<URI> uri() {
        return Optional.ofNullable(configured != null ? configured : own);
    }
}
