package com.payorch.security;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;

/** An API key as the client sent it, before it is checked. */
final class PresentedApiKey extends AbstractAuthenticationToken {

    private final String key;

    PresentedApiKey(String key) {
        super(List.of());
        this.key = key;
    }

    @Override
    public Object getCredentials() {
        return key;
    }

    @Override
    public Object getPrincipal() {
        return "";
    }
}
