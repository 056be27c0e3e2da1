package com.payorch.connectors.sandbox;

import java.net.URI;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Where the customer's browser reaches the sandbox's pages: `public-url`, else this service on localhost once its port
 * is known (enough for development and tests; behind a proxy or on another host `public-url` must be set).
 */
@Component
public class SandboxOwnAddress implements ApplicationListener<ReactiveWebServerInitializedEvent> {

    static final String AUTHENTICATION_PATH = "/sandbox/authenticate/";

    private final String configured;
    private volatile String own;

    public SandboxOwnAddress(SandboxGatewayProperties properties) {
        this.configured = properties.publicUrl() == null ? null : withoutTrailingSlash(properties.publicUrl());
    }

    @Override
    public void onApplicationEvent(ReactiveWebServerInitializedEvent event) {
        // A separate management server announces itself too, under its own namespace; only the API server counts.
        if (event.getApplicationContext().getServerNamespace() == null) {
            own = "http://localhost:" + event.getWebServer().getPort();
        }
    }

    /** The page where the customer approves or declines the charge. */
    public String authenticationPage(String chargeId) {
        String base = configured != null ? configured : own;
        if (base == null) {
            throw new IllegalStateException("the sandbox's address is not known before the server has started;"
                    + " set payments.gateway.sandbox.public-url");
        }
        return base + AUTHENTICATION_PATH + chargeId;
    }

    private static String withoutTrailingSlash(URI uri) {
        String text = uri.toString();
        return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    }
}
