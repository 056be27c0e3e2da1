package com.payorch.connectors.sandbox.api;

import com.payorch.connectors.sandbox.SandboxCharge;
import com.payorch.connectors.sandbox.SandboxCustomerAction;
import com.payorch.connectors.sandbox.SandboxCustomerAction.Decision;
import com.payorch.connectors.sandbox.SandboxGateway;
import com.payorch.connectors.sandbox.SandboxPageTokens;
import java.math.BigDecimal;
import java.util.Currency;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import org.thymeleaf.ITemplateEngine;
import org.thymeleaf.context.Context;
import reactor.core.publisher.Mono;

/**
 * The sandbox's 3-D Secure page, `/sandbox/authenticate/{chargeId}`, for the customer's browser (no API key: the
 * one-time signed token in the form is what lets a POST settle the charge). GET shows the amount and the two buttons;
 * POST settles the charge as decided and sends the browser back (303) to the merchant's return URL with
 * `payment_id`. A reused token or a charge no longer waiting: 409; a token not issued for this charge or an unknown
 * decision: 400; an unknown charge: 404, each an HTML page.
 */
@RestController
public class SandboxAuthenticationController {

    private static final String PATH = "/sandbox/authenticate/";

    private final SandboxGateway sandbox;
    private final SandboxCustomerAction customerAction;
    private final SandboxPageTokens tokens;
    private final ITemplateEngine templates;

    public SandboxAuthenticationController(SandboxGateway sandbox, SandboxCustomerAction customerAction,
                                           SandboxPageTokens tokens, ITemplateEngine templates) {
        this.sandbox = sandbox;
        this.customerAction = customerAction;
        this.tokens = tokens;
        this.templates = templates;
    }

    @GetMapping(PATH + "{chargeId}")
    public Mono<ResponseEntity<String>> page(@PathVariable String chargeId) {
        return sandbox.chargeById(chargeId)
                .map(charge -> charge.waitingForCustomer()
                        ? html(HttpStatus.OK, "sandbox/authenticate", Map.of("chargeId", charge.id(),
                                "action", PATH + charge.id(), "amount", amountOf(charge),
                                "token", tokens.issue(charge.id())))
                        : over(charge))
                .defaultIfEmpty(unknown());
    }

    @PostMapping(PATH + "{chargeId}")
    public Mono<ResponseEntity<String>> decide(@PathVariable String chargeId, ServerWebExchange exchange) {
        return exchange.getFormData()
                // broken percent-encoding (URLDecoder's refusal): a form without a decision, not a server error
                .onErrorResume(IllegalArgumentException.class, e -> Mono.just(new LinkedMultiValueMap<>()))
                .flatMap(form -> sandbox.chargeById(chargeId)
                        .flatMap(charge -> decide(charge, form))
                        .defaultIfEmpty(unknown()));
    }

    private Mono<ResponseEntity<String>> decide(SandboxCharge charge, MultiValueMap<String, String> form) {
        Optional<Decision> decision = decisionOf(form.getFirst("decision"));
        if (decision.isEmpty()) {
            return Mono.just(problem(HttpStatus.BAD_REQUEST, "Not understood",
                    "Choose Approve or Decline on the page. Nothing was changed."));
        }
        Optional<String> nonce = tokens.nonceOf(charge.id(), form.getFirst("token"));
        if (nonce.isEmpty()) {
            return Mono.just(problem(HttpStatus.BAD_REQUEST, "This page is not valid",
                    "The form was not issued for this payment. Open the payment's page again. Nothing was changed."));
        }
        return customerAction.decide(charge.id(), nonce.get(), decision.get())
                .map(returnUrl -> ResponseEntity.status(HttpStatus.SEE_OTHER)
                        .header(HttpHeaders.LOCATION, returnUrl)
                        .cacheControl(CacheControl.noStore())
                        .<String>build())
                .switchIfEmpty(Mono.defer(() -> sandbox.chargeById(charge.id()).map(this::over)
                        .defaultIfEmpty(unknown())));
    }

    private static Optional<Decision> decisionOf(String value) {
        if ("approve".equals(value)) {
            return Optional.of(Decision.APPROVE);
        }
        return "decline".equals(value) ? Optional.of(Decision.DECLINE) : Optional.empty();
    }

    /** A charge no longer waiting, or a form sent twice. */
    private ResponseEntity<String> over(SandboxCharge charge) {
        return problem(HttpStatus.CONFLICT, "This payment was already decided",
                "This confirmation has been used, or the payment is no longer waiting for it (it is "
                        + charge.status() + "). Nothing was changed.");
    }

    private ResponseEntity<String> unknown() {
        return problem(HttpStatus.NOT_FOUND, "No such payment", "The sandbox holds no such charge.");
    }

    private ResponseEntity<String> problem(HttpStatus status, String title, String detail) {
        return html(status, "sandbox/problem", Map.of("title", title, "detail", detail));
    }

    private ResponseEntity<String> html(HttpStatus status, String template, Map<String, Object> variables) {
        Context context = new Context();
        context.setVariables(variables);
        return ResponseEntity.status(status)
                .contentType(new MediaType(MediaType.TEXT_HTML, java.nio.charset.StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noStore())
                .header("Referrer-Policy", "no-referrer")
                .body(templates.process(template, context));
    }

    /** The amount in major units with its currency (`120.00 EUR`, `12000 JPY`). */
    static String amountOf(SandboxCharge charge) {
        int digits;
        try {
            digits = Math.max(0, Currency.getInstance(charge.currency()).getDefaultFractionDigits());
        } catch (IllegalArgumentException e) {
            digits = 2;
        }
        return BigDecimal.valueOf(charge.amount(), digits).toPlainString() + " " + charge.currency();
    }
}
