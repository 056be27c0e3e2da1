package com.payorch.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code payments.allow-development-defaults}.
 *
 * @param allowDevelopmentDefaults With an external database the service refuses to start while any credential is
 *                                 still a published development value; true lets it start anyway, for a shared test
 *                                 or demo environment. It warns in the log either way.
 */
@ConfigurationProperties("payments")
public record DevelopmentDefaultsProperties(boolean allowDevelopmentDefaults) {
}
