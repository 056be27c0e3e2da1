package com.payorch.security;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;

/** An authenticated API request: its principal name is the merchant id. */
public final class MerchantAuthentication extends AbstractAuthenticationToken {

    private final String merchantId;

    public MerchantAuthentication(String merchantId) {
        super(List.of());
        this.merchantId = merchantId;
        setAuthenticated(true);
    }

    @Override
    public Object getCredentials() {
        return "";
    }

    @Override
    public Object getPrincipal() {
        return merchantId;
    }

    @Override
    public String getName() {
        return merchantId;
    }
}
