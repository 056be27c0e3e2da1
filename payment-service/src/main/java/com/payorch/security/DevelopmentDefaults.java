package com.payorch.security;

import com.payorch.connectors.sandbox.SandboxGatewayProperties;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;

/**
 * Refuses the published development credentials outside development. They are printed in the README and in this
 * repository (the API key {@code sk_test_demo}, the sandbox webhook secret, the console user {@code operator}'s
 * password and its hash), so anyone could use them: they are
 * accepted only while the service runs on its embedded database. The same holds for a route naming the sandbox
 * ({@code payments.merchants.<id>.routing}, also by default when unset, or {@code routing-by-currency.<CUR>}): the
 * sandbox completes payments with no money taken. With an external database (the same rule as
 * {@code payments.db.embedded}: {@code spring.r2dbc.url} set, or {@code payments.db.embedded=false}) the service
 * refuses to start, naming every configuration key that holds one, unless
 * {@code payments.allow-development-defaults=true}. It logs a warning whenever it runs with them.
 *
 * <p>A {@link BeanFactoryPostProcessor}, so the check runs before any bean is created: before a connection to the
 * external database is opened or a migration runs.
 */
@Component
public class DevelopmentDefaults implements BeanFactoryPostProcessor, EnvironmentAware {

    /** The development merchant's API key, printed in the README and shipped in application.yml. */
    public static final String DEVELOPMENT_API_KEY = "sk_test_demo";

    /** The development console user's password, printed in the README. */
    public static final String DEVELOPMENT_CONSOLE_PASSWORD = "operator-dev-password";

    /** Its bcrypt hash, shipped in application.yml as {@code payments.console.users.operator.password-bcrypt}. */
    public static final String DEVELOPMENT_CONSOLE_PASSWORD_BCRYPT =
            "$2a$10$8yGWESXhIxtk0uMMb5X6HePH6BWnDTaVXj5V0NGb2V9rkI87qTJDa";

    /** Every credential value this repository publishes. */
    static final Set<String> PUBLISHED = Set.of(DEVELOPMENT_API_KEY,
            SandboxGatewayProperties.DEVELOPMENT_WEBHOOK_SECRET, DEVELOPMENT_CONSOLE_PASSWORD_BCRYPT);

    private static final Logger log = LoggerFactory.getLogger(DevelopmentDefaults.class);

    /** The development connector's name, as routes spell it. */
    private static final String SANDBOX = "sandbox";

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        check(environment);
    }

    static void check(Environment environment) {
        List<String> offending = offendingKeys(environment);
        if (offending.isEmpty()) {
            return;
        }
        Binder binder = Binder.get(environment);
        boolean allowed = binder.bind("payments", DevelopmentDefaultsProperties.class)
                .map(DevelopmentDefaultsProperties::allowDevelopmentDefaults).orElse(false);
        String keys = String.join(", ", offending);
        if (!runsOnEmbeddedDatabase(environment) && !allowed) {
            throw new IllegalStateException("Refusing to start: " + keys + " still "
                    + (offending.size() == 1 ? "holds a" : "hold") + " development default"
                    + (offending.size() == 1 ? "" : "s") + " (a credential printed in the README, or the sandbox,"
                    + " which takes no money), and the service runs on an external database. Configure secret"
                    + " values and real connectors, or set payments.allow-development-defaults=true to accept them"
                    + " knowingly.");
        }
        log.warn("Running with development defaults in {} ({}): anyone who has read the README can use published"
                        + " credentials, and the sandbox takes no money; replace them in any real deployment.", keys,
                allowed ? "payments.allow-development-defaults=true" : "embedded database");
    }

    /** The configuration keys whose value is a published development credential, in a stable order. */
    static List<String> offendingKeys(Environment environment) {
        Set<String> publishedDigests = PUBLISHED.stream()
                .map(value -> HexFormat.of().formatHex(ApiKeys.sha256(value)))
                .collect(Collectors.toSet());
        List<String> offending = new ArrayList<>();
        Map<String, MerchantProperties.Merchant> merchants = Binder.get(environment)
                .bind("payments.merchants", Bindable.mapOf(String.class, MerchantProperties.Merchant.class))
                .orElse(Map.of());
        merchants.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> {
            MerchantProperties.Merchant merchant = entry.getValue();
            if (merchant.getApiKey() != null && PUBLISHED.contains(merchant.getApiKey().trim())) {
                offending.add("payments.merchants." + entry.getKey() + ".api-key");
            }
            if (merchant.getApiKeySha256() != null
                    && publishedDigests.contains(merchant.getApiKeySha256().trim().toLowerCase(Locale.ROOT))) {
                offending.add("payments.merchants." + entry.getKey() + ".api-key-sha256");
            }
        });
        // Unset, the sandbox uses its development secret (SandboxGatewayProperties).
        String webhookSecret = environment.getProperty("payments.gateway.sandbox.webhook-secret",
                SandboxGatewayProperties.DEVELOPMENT_WEBHOOK_SECRET);
        if (PUBLISHED.contains(webhookSecret.trim())) {
            offending.add("payments.gateway.sandbox.webhook-secret");
        }
        String operatorKey = environment.getProperty("payments.operator.api-key");
        if (operatorKey != null && PUBLISHED.contains(operatorKey.trim())) {
            offending.add("payments.operator.api-key");
        }
        offending.addAll(consoleUsersWithPublishedPasswords(environment));
        offending.addAll(routesToTheSandbox(environment, merchants.keySet()));
        return offending;
    }

    /**
     * The route keys that name the sandbox: a merchant's {@code routing} (unset, it is the sandbox: the default route)
     * and each {@code routing-by-currency.<CUR>}.
     */
    private static List<String> routesToTheSandbox(Environment environment, Set<String> merchantsWithKeys) {
        Map<String, MerchantRoute> routes = Binder.get(environment)
                .bind("payments.merchants", Bindable.mapOf(String.class, MerchantRoute.class))
                .orElse(Map.of());
        // A merchant with no route key at all binds no MerchantRoute: its API key names it.
        Set<String> ids = new java.util.TreeSet<>(merchantsWithKeys);
        ids.addAll(routes.keySet());
        List<String> offending = new ArrayList<>();
        ids.forEach(id -> {
            MerchantRoute route = routes.getOrDefault(id, new MerchantRoute(null, null));
            if (route.routing() == null || route.routing().isEmpty() || namesTheSandbox(route.routing())) {
                offending.add("payments.merchants." + id + ".routing"
                        + (route.routing() == null || route.routing().isEmpty() ? " (unset: the sandbox)" : ""));
            }
            if (route.routingByCurrency() != null) {
                new TreeMap<>(route.routingByCurrency()).forEach((currency, connectors) -> {
                    if (namesTheSandbox(connectors)) {
                        offending.add("payments.merchants." + id + ".routing-by-currency." + currency);
                    }
                });
            }
        });
        return offending;
    }

    private static boolean namesTheSandbox(List<String> connectors) {
        return connectors != null && connectors.stream()
                .anyMatch(name -> SANDBOX.equals(name.trim().toLowerCase(Locale.ROOT)));
    }

    /** Only the route keys this check reads of {@code payments.merchants.<id>} (the router binds the whole route). */
    record MerchantRoute(List<String> routing, Map<String, List<String>> routingByCurrency) {
    }

    /**
     * Console users whose password hash is the published one, or any other hash of the published password (bcrypt
     * salts each hash, so the value alone would miss a re-hashed copy of the README's password).
     */
    private static List<String> consoleUsersWithPublishedPasswords(Environment environment) {
        Map<String, ConsoleUserPassword> users = Binder.get(environment)
                .bind("payments.console.users", Bindable.mapOf(String.class, ConsoleUserPassword.class))
                .orElse(Map.of());
        BCryptPasswordEncoder bcrypt = new BCryptPasswordEncoder();
        List<String> offending = new ArrayList<>();
        new TreeMap<>(users).forEach((name, settings) -> {
            String hash = settings.passwordBcrypt();
            if (hash == null) {
                return;
            }
            String trimmed = hash.trim();
            if (PUBLISHED.contains(trimmed) || matches(bcrypt, trimmed)) {
                offending.add("payments.console.users." + name + ".password-bcrypt");
            }
        });
        return offending;
    }

    private static boolean matches(BCryptPasswordEncoder bcrypt, String hash) {
        try {
            return bcrypt.matches(DEVELOPMENT_CONSOLE_PASSWORD, hash);
        } catch (IllegalArgumentException notAHash) {
            return false; // ConsoleProperties refuses it with its own message
        }
    }

    /** Only the key this check reads of {@code payments.console.users.<name>} (the console binds the whole user). */
    record ConsoleUserPassword(String passwordBcrypt, String merchants) {
    }

    /** The rule of {@code payments.db.embedded}: explicit, else embedded unless {@code spring.r2dbc.url} is set. */
    static boolean runsOnEmbeddedDatabase(Environment environment) {
        Boolean embedded = environment.getProperty("payments.db.embedded", Boolean.class);
        if (embedded != null) {
            return embedded;
        }
        return !StringUtils.hasText(environment.getProperty("spring.r2dbc.url"));
    }
}
