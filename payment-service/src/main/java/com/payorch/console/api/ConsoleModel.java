package com.payorch.console.api;

import com.payorch.console.ActionResult;
import com.payorch.console.ConsoleUser;
import org.springframework.http.HttpMethod;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.reactive.result.view.CsrfRequestDataValueProcessor;
import org.springframework.security.web.server.csrf.CsrfToken;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * What every console page gets in its model: the CSRF token (for the hidden field of each form), the signed-in
 * user, and the notice an action left in the session for the page it redirected to (shown once).
 */
@ControllerAdvice(basePackageClasses = ConsoleModel.class)
class ConsoleModel {

    static final String NOTICE = "console.notice";

    @ModelAttribute("csrf")
    Mono<CsrfToken> csrf(ServerWebExchange exchange) {
        Mono<CsrfToken> token = exchange.getAttribute(CsrfToken.class.getName());
        return token == null ? Mono.empty() : token.doOnNext(resolved -> exchange.getAttributes()
                .put(CsrfRequestDataValueProcessor.DEFAULT_CSRF_ATTR_NAME, resolved));
    }

    @ModelAttribute("user")
    Mono<ConsoleUser> user(@AuthenticationPrincipal Mono<ConsoleUser> user) {
        return user;
    }

    @ModelAttribute("notice")
    Mono<ActionResult> notice(ServerWebExchange exchange) {
        // Model Monos are resolved when the view renders: a POST's redirect must not take the notice it leaves.
        if (exchange.getRequest().getMethod() != HttpMethod.GET) {
            return Mono.empty();
        }
        return exchange.getSession().flatMap(session -> Mono.justOrEmpty(
                (ActionResult) session.getAttributes().remove(NOTICE)));
    }

    static Mono<Void> leaveNotice(ServerWebExchange exchange, ActionResult result) {
        return exchange.getSession().doOnNext(session -> session.getAttributes().put(NOTICE, result)).then();
    }
}
