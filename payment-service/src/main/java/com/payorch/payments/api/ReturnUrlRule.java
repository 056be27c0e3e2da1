package com.payorch.payments.api;

import com.payorch.web.ApiProblem;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;

/**
 * The optional `returnUrl` of a create: where the connector sends the customer back after an action. An absolute
 * https URL, or http to the local machine (localhost, 127.0.0.1, [::1]) for development; at most 2,000 characters;
 * no control characters, spaces or user information; a host. Anything else is 400 `invalid_request`, nothing stored.
 */
final class ReturnUrlRule {

    static final int MAX_LENGTH = 2000;
    private static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]");

    private ReturnUrlRule() {
    }

    static String check(String value) {
        if (value.length() > MAX_LENGTH) {
            throw ApiProblem.invalidRequest("Field 'returnUrl' must be at most " + MAX_LENGTH + " characters.");
        }
        if (value.chars().anyMatch(c -> c <= 0x20 || c == 0x7f || Character.isISOControl(c) || c > 0x7e)) {
            throw ApiProblem.invalidRequest("Field 'returnUrl' must not contain control characters, spaces or"
                    + " characters outside printable ASCII (percent-encode them).");
        }
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            throw ApiProblem.invalidRequest("Field 'returnUrl' must be an absolute URL.");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost() == null ? null : uri.getHost().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || uri.isOpaque() || host == null || host.isEmpty()) {
            throw ApiProblem.invalidRequest("Field 'returnUrl' must be an absolute URL with a host.");
        }
        if (uri.getRawUserInfo() != null) {
            throw ApiProblem.invalidRequest("Field 'returnUrl' must not carry user information.");
        }
        boolean local = LOCAL_HOSTS.contains(host);
        if (!scheme.equals("https") && !(scheme.equals("http") && local)) {
            throw ApiProblem.invalidRequest("Field 'returnUrl' must be an https URL (http only to localhost).");
        }
        return value;
    }
}
