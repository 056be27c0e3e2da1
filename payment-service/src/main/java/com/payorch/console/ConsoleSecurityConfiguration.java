package com.payorch.console;

import java.net.URI;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.authentication.UserDetailsRepositoryReactiveAuthenticationManager;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.ReactiveUserDetailsService;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.authentication.RedirectServerAuthenticationSuccessHandler;
import org.springframework.security.web.server.authentication.logout.RedirectServerLogoutSuccessHandler;
import org.springframework.security.web.server.header.ReferrerPolicyServerHttpHeadersWriter;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;
import reactor.core.publisher.Mono;

/**
 * The console's own security chain, ordered before the API's ({@code security.SecurityConfiguration}, which keeps
 * /v1 and the actuator): it matches only {@code /console} and below. Form login against the users of
 * {@link ConsoleProperties} (bcrypt), a session cookie, CSRF protection on every state-changing request, and
 * secure headers with a content security policy that allows only the console's own script and styles. No API key
 * is involved, so none can reach the browser.
 */
@Configuration
public class ConsoleSecurityConfiguration {

    public static final String LOGIN_PAGE = "/console/login";

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    SecurityWebFilterChain consoleSecurity(ServerHttpSecurity http, ConsoleProperties properties) {
        RedirectServerLogoutSuccessHandler loggedOut = new RedirectServerLogoutSuccessHandler();
        loggedOut.setLogoutSuccessUrl(URI.create(LOGIN_PAGE + "?logout"));
        return http
                .securityMatcher(ServerWebExchangeMatchers.pathMatchers("/console", "/console/**"))
                .authenticationManager(authenticationManager(properties))
                .authorizeExchange(exchanges -> exchanges
                        .pathMatchers(LOGIN_PAGE, "/console/assets/**").permitAll()
                        .anyExchange().hasRole("CONSOLE"))
                .formLogin(form -> form
                        .loginPage(LOGIN_PAGE)
                        .authenticationSuccessHandler(new RedirectServerAuthenticationSuccessHandler("/console")))
                .logout(logout -> logout
                        .logoutUrl("/console/logout")
                        .logoutSuccessHandler(loggedOut))
                .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                .headers(headers -> headers
                        .contentSecurityPolicy(csp -> csp.policyDirectives("default-src 'self'; script-src 'self'; "
                                + "style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; "
                                + "frame-ancestors 'none'; form-action 'self'; base-uri 'none'"))
                        .referrerPolicy(referrer -> referrer.policy(
                                ReferrerPolicyServerHttpHeadersWriter.ReferrerPolicy.SAME_ORIGIN)))
                .build();
    }

    /** Bcrypt-checked users from the configuration; not a bean, so the API chain never sees it. */
    static ReactiveAuthenticationManager authenticationManager(ConsoleProperties properties) {
        Map<String, ConsoleUser> users = properties.users().entrySet().stream()
                .map(entry -> new ConsoleUser(entry.getKey(), entry.getValue().passwordBcrypt(),
                        entry.getValue().scope()))
                .collect(Collectors.toMap(ConsoleUser::name, Function.identity()));
        ReactiveUserDetailsService lookup = name -> Mono.<UserDetails>justOrEmpty(users.get(name));
        UserDetailsRepositoryReactiveAuthenticationManager manager =
                new UserDetailsRepositoryReactiveAuthenticationManager(lookup);
        manager.setPasswordEncoder(new BCryptPasswordEncoder());
        return manager;
    }
}
