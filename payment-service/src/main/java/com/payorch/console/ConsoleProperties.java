package com.payorch.console;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.console.*}: who may open the operations console, and how often an open payment page looks for
 * changes.
 *
 * @param users            The console users by name: {@code payments.console.users.<name>.password-bcrypt} (a bcrypt
 *                         hash, {@code $2a$…}/{@code $2b$…}) and {@code payments.console.users.<name>.merchants} (merchant
 *                         ids separated by commas, or {@code *} for every merchant). Default: none; application.yml
 *                         defines the development user {@code operator} (password {@code operator-dev-password}), which
 *                         is refused with an external database like the other development defaults.
 * @param livePollInterval How often the server-sent event stream of an open payment page checks the payment for
 *                         changes (one small query per open page each time).
 */
@ConfigurationProperties("payments.console")
public record ConsoleProperties(@DefaultValue Map<String, User> users,
                                @DefaultValue("PT1S") Duration livePollInterval) {

    public ConsoleProperties {
        users = users == null ? Map.of() : new LinkedHashMap<>(users);
        users.forEach((name, user) -> {
            if (user.passwordBcrypt() == null || !user.passwordBcrypt().matches("\\$2[aby]?\\$\\d\\d\\$.{53}")) {
                throw new IllegalArgumentException("payments.console.users." + name
                        + ".password-bcrypt must be a bcrypt hash ($2a$10$…, 60 characters)");
            }
        });
        if (livePollInterval.isNegative() || livePollInterval.isZero()) {
            throw new IllegalArgumentException("payments.console.live-poll-interval must be positive");
        }
    }

    /**
     * One console user.
     *
     * @param passwordBcrypt the bcrypt hash of the user's password
     * @param merchants      the merchants whose payments the user may see and act on: ids separated by commas, or
     *                       {@code *} for all; empty: none
     */
    public record User(@Nullable String passwordBcrypt, @DefaultValue("") String merchants) {

        /** The merchants as a scope. */
        public MerchantScope scope() {
            String trimmed = merchants.trim();
            if (trimmed.equals("*")) {
                return MerchantScope.ALL;
            }
            Set<String> ids = Arrays.stream(trimmed.split(",")).map(String::trim).filter(id -> !id.isEmpty())
                    .collect(Collectors.toCollection(java.util.TreeSet::new));
            return MerchantScope.of(ids);
        }
    }
}
