package com.payorch.console.api;

import com.payorch.console.ActionResult;
import com.payorch.console.ConsoleActions;
import com.payorch.console.ConsoleReadModel;
import com.payorch.console.ConsoleUser;
import java.net.URI;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.reactive.result.view.Rendering;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Step two of every action: the confirmed form (CSRF token, action key) is carried out through
 * {@link ConsoleActions}, its outcome left as a notice in the session, and the browser sent back (303) to the page
 * the action is about. A target the user may not see answers 404, as its page does.
 */
@Controller
public class ConsoleActionController {

    private static final String REASON_RULE = "The reason must be at most 200 characters, without control"
            + " characters.";

    private final ConsoleActions actions;
    private final ConsoleReadModel reads;

    public ConsoleActionController(ConsoleActions actions, ConsoleReadModel reads) {
        this.actions = actions;
        this.reads = reads;
    }

    @PostMapping("/console/payments/{paymentId}/retry")
    public Mono<Rendering> retry(@AuthenticationPrincipal ConsoleUser user, @PathVariable String paymentId,
                                 ServerWebExchange exchange) {
        return onPayment(user, paymentId, exchange,
                (form) -> merchant -> actions.retry(user, merchant, paymentId, form.getFirst("actionKey")));
    }

    @PostMapping("/console/payments/{paymentId}/refund")
    public Mono<Rendering> refund(@AuthenticationPrincipal ConsoleUser user, @PathVariable String paymentId,
                                  ServerWebExchange exchange) {
        return onPayment(user, paymentId, exchange, form -> merchant -> {
            String amountText = trimmed(form.getFirst("amount"));
            Long amount = null;
            if (amountText != null) {
                try {
                    amount = Long.parseLong(amountText);
                } catch (NumberFormatException e) {
                    amount = -1L;
                }
                if (amount < 1) {
                    return Mono.just(new ActionResult(ActionResult.Kind.REFUSED,
                            "The amount must be a whole number of at least 1 (in the currency's minor unit)."));
                }
            }
            String reason = trimmed(form.getFirst("reason"));
            if (!acceptableReason(reason)) {
                return Mono.just(new ActionResult(ActionResult.Kind.REFUSED, REASON_RULE));
            }
            return actions.refund(user, merchant, paymentId, amount, reason, form.getFirst("actionKey"));
        });
    }

    @PostMapping("/console/payments/{paymentId}/capture")
    public Mono<Rendering> capture(@AuthenticationPrincipal ConsoleUser user, @PathVariable String paymentId,
                                   ServerWebExchange exchange) {
        return onPayment(user, paymentId, exchange, form -> merchant -> {
            String amountText = trimmed(form.getFirst("amount"));
            Long amount = null;
            if (amountText != null) {
                amount = wholeNumber(amountText);
                if (amount == null) {
                    return Mono.just(new ActionResult(ActionResult.Kind.REFUSED,
                            "The capture amount must be a whole number of at least 1 (in the currency's minor unit),"
                                    + " at most what the payment holds."));
                }
            }
            return actions.capture(user, merchant, paymentId, amount, form.getFirst("actionKey"));
        });
    }

    @PostMapping("/console/payments/{paymentId}/cancel")
    public Mono<Rendering> cancel(@AuthenticationPrincipal ConsoleUser user, @PathVariable String paymentId,
                                  ServerWebExchange exchange) {
        return onPayment(user, paymentId, exchange, form -> merchant -> {
            String reason = trimmed(form.getFirst("reason"));
            if (!acceptableReason(reason)) {
                return Mono.just(new ActionResult(ActionResult.Kind.REFUSED, REASON_RULE));
            }
            return actions.cancel(user, merchant, paymentId, reason, form.getFirst("actionKey"));
        });
    }

    @PostMapping("/console/events/{eventId}/redeliver")
    public Mono<Rendering> redeliver(@AuthenticationPrincipal ConsoleUser user, @PathVariable String eventId,
                                     ServerWebExchange exchange) {
        return onEvent(user, eventId, exchange,
                form -> merchant -> actions.redeliver(user, merchant, eventId, form.getFirst("actionKey")));
    }

    @PostMapping("/console/events/{eventId}/requeue")
    public Mono<Rendering> requeue(@AuthenticationPrincipal ConsoleUser user, @PathVariable String eventId,
                                   ServerWebExchange exchange) {
        return onEvent(user, eventId, exchange,
                form -> merchant -> actions.requeue(user, merchant, eventId, form.getFirst("actionKey")));
    }

    private Mono<Rendering> onPayment(ConsoleUser user, String paymentId, ServerWebExchange exchange,
                                      Function<MultiValueMap<String, String>, Function<String, Mono<ActionResult>>> act) {
        return exchange.getFormData().flatMap(form -> reads.merchantOf(user.scope(), paymentId)
                .flatMap(merchant -> run(form, act.apply(form), merchant, exchange,
                        "/console/payments/" + paymentId)))
                .switchIfEmpty(Mono.fromSupplier(() -> ConsolePageController.notFound("payment " + paymentId)));
    }

    private Mono<Rendering> onEvent(ConsoleUser user, String eventId, ServerWebExchange exchange,
                                    Function<MultiValueMap<String, String>, Function<String, Mono<ActionResult>>> act) {
        return exchange.getFormData().flatMap(form -> reads.merchantOfEvent(user.scope(), eventId)
                .flatMap(merchant -> {
                    String back = trimmed(form.getFirst("back"));
                    // only the console's own pages, never an address from elsewhere
                    String target = back != null && back.matches("/console(/[A-Za-z0-9_./-]*)?") ? back
                            : "/console/attention";
                    return run(form, act.apply(form), merchant, exchange, target);
                }))
                .switchIfEmpty(Mono.fromSupplier(() -> ConsolePageController.notFound("event " + eventId)));
    }

    private static Mono<Rendering> run(MultiValueMap<String, String> form, Function<String, Mono<ActionResult>> act,
                                       String merchant, ServerWebExchange exchange, String back) {
        if (!ConsoleActions.isActionKey(form.getFirst("actionKey"))) {
            return Mono.just(Rendering.view("console/error")
                    .modelAttribute("message", "This form has no valid action key: open the action again.")
                    .status(HttpStatus.BAD_REQUEST).build());
        }
        return act.apply(merchant)
                .flatMap(result -> ConsoleModel.leaveNotice(exchange, result))
                .thenReturn(Rendering.redirectTo(URI.create(back).toString()).status(HttpStatus.SEE_OTHER).build());
    }

    private static boolean acceptableReason(@Nullable String reason) {
        return reason == null || (reason.length() <= 200 && reason.chars().noneMatch(Character::isISOControl));
    }

    /** A positive whole number, or null for anything else (a fraction, a sign, letters, too many digits). */
    private static @Nullable Long wholeNumber(String text) {
        if (!text.matches("[0-9]{1,18}")) {
            return null;
        }
        long value = Long.parseLong(text);
        return value >= 1 ? value : null;
    }

    private static @Nullable String trimmed(@Nullable String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
