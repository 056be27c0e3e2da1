package com.payorch.console.api;

import com.payorch.console.BarChart;
import com.payorch.console.ConsoleActions;
import com.payorch.console.ConsoleReadModel;
import com.payorch.console.ConsoleUser;
import com.payorch.console.NeedsAttention;
import com.payorch.console.Overview;
import com.payorch.console.PaymentSearch;
import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.reactive.result.view.Rendering;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;

/** The console's pages: log-in, overview, payment list, needs attention, payment page, confirmations. */
@Controller
public class ConsolePageController {

    static final int PAGE_SIZE = 25;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.:-]{1,255}");
    private static final List<String> PAYMENT_ACTIONS = List.of("retry", "refund", "capture", "cancel");
    static final List<String> STATUSES = Arrays.stream(PaymentStatus.values()).map(Enum::name).toList();

    private final ConsoleReadModel reads;
    private final NeedsAttention attention;
    private final Overview overview;
    public ConsolePageController(ConsoleReadModel reads, NeedsAttention attention, Overview overview) {
        this.reads = reads;
        this.attention = attention;
        this.overview = overview;
    }

    @GetMapping("/console/login")
    public Rendering login(@RequestParam(required = false) String error, @RequestParam(required = false) String logout) {
        return Rendering.view("console/login").modelAttribute("error", error != null)
                .modelAttribute("loggedOut", logout != null).build();
    }

    @GetMapping({"/console", "/console/"})
    public Mono<Rendering> overview(@AuthenticationPrincipal ConsoleUser user) {
        return overview.figures(user.scope()).map(figures -> Rendering.view("console/overview")
                .modelAttribute("figures", figures)
                .modelAttribute("statusChart", BarChart.svg("Payments per status, last day and last hour",
                        figures.byStatus()))
                .modelAttribute("connectorChart", BarChart.svg("Payments per connector, last day and last hour",
                        figures.byConnector()))
                .build());
    }

    @GetMapping("/console/payments")
    public Mono<Rendering> payments(@AuthenticationPrincipal ConsoleUser user,
                                    @RequestParam(required = false) String q,
                                    @RequestParam(required = false) String merchant,
                                    @RequestParam(required = false) String status,
                                    @RequestParam(required = false) String bookingId,
                                    @RequestParam(required = false) String connector,
                                    @RequestParam(required = false) String createdAfter,
                                    @RequestParam(required = false) String createdBefore,
                                    @RequestParam(name = "starting_after", required = false) String startingAfter) {
        List<String> problems = new ArrayList<>();
        PaymentSearch search = new PaymentSearch(id(q, "Payment or booking id", problems),
                id(merchant, "Merchant", problems), status(status, problems), id(bookingId, "Booking", problems),
                id(connector, "Connector", problems), time(createdAfter, "Created after", problems),
                time(createdBefore, "Created before", problems));
        String cursor = id(startingAfter, "Page", problems);
        return reads.list(user.scope(), search, cursor, PAGE_SIZE).map(page -> {
            String next = null;
            if (page.hasMore()) {
                next = UriComponentsBuilder.fromPath("/console/payments")
                        .queryParamIfPresent("q", java.util.Optional.ofNullable(blankToNull(q)))
                        .queryParamIfPresent("merchant", java.util.Optional.ofNullable(blankToNull(merchant)))
                        .queryParamIfPresent("status", java.util.Optional.ofNullable(blankToNull(status)))
                        .queryParamIfPresent("bookingId", java.util.Optional.ofNullable(blankToNull(bookingId)))
                        .queryParamIfPresent("connector", java.util.Optional.ofNullable(blankToNull(connector)))
                        .queryParamIfPresent("createdAfter", java.util.Optional.ofNullable(blankToNull(createdAfter)))
                        .queryParamIfPresent("createdBefore",
                                java.util.Optional.ofNullable(blankToNull(createdBefore)))
                        .queryParam("starting_after", page.data().get(page.data().size() - 1).id())
                        .encode().build().toUriString();
            }
            return Rendering.view("console/payments")
                    .modelAttribute("page", page)
                    .modelAttribute("next", next)
                    .modelAttribute("problems", problems)
                    .modelAttribute("statuses", STATUSES)
                    .modelAttribute("filter", new Filter(blank(q), blank(merchant), blank(status), blank(bookingId),
                            blank(connector), blank(createdAfter), blank(createdBefore)))
                    .modelAttribute("firstPage", startingAfter == null)
                    .build();
        });
    }

    /** The filter form's values as typed, to show them again. */
    public record Filter(String q, String merchant, String status, String bookingId, String connector,
                         String createdAfter, String createdBefore) {
    }

    @GetMapping("/console/attention")
    public Mono<Rendering> attention(@AuthenticationPrincipal ConsoleUser user) {
        return attention.find(user.scope()).map(lists -> Rendering.view("console/attention")
                .modelAttribute("lists", lists).build());
    }

    @GetMapping("/console/payments/{paymentId}")
    public Mono<Rendering> payment(@AuthenticationPrincipal ConsoleUser user, @PathVariable String paymentId) {
        return reads.changeMark(user.scope(), paymentId)
                .flatMap(mark -> reads.dossier(user.scope(), paymentId).map(dossier -> Rendering
                        .view("console/payment")
                        .modelAttribute("d", dossier)
                        .modelAttribute("p", dossier.payment().payment())
                        .modelAttribute("mark", mark)
                        .modelAttribute("diagram", PaymentPageDiagram.svg(dossier))
                        .build()))
                .switchIfEmpty(Mono.fromSupplier(() -> notFound("payment " + paymentId)));
    }

    /** The live part of the payment page, fetched by the page's script when the event stream says it changed. */
    @GetMapping("/console/payments/{paymentId}/sections")
    public Mono<Rendering> sections(@AuthenticationPrincipal ConsoleUser user, @PathVariable String paymentId) {
        return reads.changeMark(user.scope(), paymentId)
                .flatMap(mark -> reads.dossier(user.scope(), paymentId).map(dossier -> Rendering
                        .view("console/payment :: live")
                        .modelAttribute("d", dossier)
                        .modelAttribute("p", dossier.payment().payment())
                        .modelAttribute("mark", mark)
                        .modelAttribute("diagram", PaymentPageDiagram.svg(dossier))
                        .build()))
                .switchIfEmpty(Mono.fromSupplier(() -> notFound("payment " + paymentId)));
    }

    /** Step one of retry, refund, capture and cancel: what will happen, and a form with a fresh action key to confirm it. */
    @GetMapping("/console/payments/{paymentId}/confirm")
    public Mono<Rendering> confirmPaymentAction(@AuthenticationPrincipal ConsoleUser user,
                                                @PathVariable String paymentId, @RequestParam String action,
                                                @RequestParam(required = false) String amount,
                                                @RequestParam(required = false) String reason) {
        if (!PAYMENT_ACTIONS.contains(action)) {
            return Mono.just(notFound("action " + action));
        }
        return reads.dossier(user.scope(), paymentId).map(dossier -> Rendering.view("console/confirm")
                        .modelAttribute("action", action)
                        .modelAttribute("p", dossier.payment().payment())
                        .modelAttribute("refundable", dossier.refundable())
                        .modelAttribute("capturable", dossier.capturable())
                        .modelAttribute("amount", blank(amount).trim())
                        .modelAttribute("reason", blank(reason).trim())
                        .modelAttribute("actionKey", ConsoleActions.newActionKey())
                        .modelAttribute("target", "/console/payments/" + paymentId + "/" + action)
                        .modelAttribute("back", "/console/payments/" + paymentId)
                        .build())
                .switchIfEmpty(Mono.fromSupplier(() -> notFound("payment " + paymentId)));
    }

    /** Step one of redeliver and requeue. */
    @GetMapping("/console/events/{eventId}/confirm")
    public Mono<Rendering> confirmEventAction(@AuthenticationPrincipal ConsoleUser user, @PathVariable String eventId,
                                              @RequestParam String action) {
        if (!action.equals("redeliver") && !action.equals("requeue")) {
            return Mono.just(notFound("action " + action));
        }
        return reads.merchantOfEvent(user.scope(), eventId).map(merchant -> Rendering.view("console/confirm")
                        .modelAttribute("action", action)
                        .modelAttribute("eventId", eventId)
                        .modelAttribute("merchant", merchant)
                        .modelAttribute("actionKey", ConsoleActions.newActionKey())
                        .modelAttribute("target", "/console/events/" + eventId + "/" + action)
                        .modelAttribute("back", "/console/attention")
                        .build())
                .switchIfEmpty(Mono.fromSupplier(() -> notFound("event " + eventId)));
    }

    static Rendering notFound(String what) {
        return Rendering.view("console/not-found").modelAttribute("what", what).status(HttpStatus.NOT_FOUND).build();
    }

    private static @Nullable String id(@Nullable String value, String label, List<String> problems) {
        String trimmed = blankToNull(value);
        if (trimmed != null && !ID.matcher(trimmed).matches()) {
            problems.add(label + ": use letters, digits and _ . : - only (ignored).");
            return null;
        }
        return trimmed;
    }

    private static @Nullable String status(@Nullable String value, List<String> problems) {
        String trimmed = blankToNull(value);
        if (trimmed != null && !STATUSES.contains(trimmed)) {
            problems.add("Status: one of " + String.join(", ", STATUSES) + " (ignored).");
            return null;
        }
        return trimmed;
    }

    /** {@code 2026-11-30T14:00} as the form's datetime-local sends it (read as UTC), or an RFC 3339 timestamp. */
    private static @Nullable Instant time(@Nullable String value, String label, List<String> problems) {
        String trimmed = blankToNull(value);
        if (trimmed == null) {
            return null;
        }
        try {
            return LocalDateTime.parse(trimmed).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException notLocal) {
            try {
                return java.time.OffsetDateTime.parse(trimmed).toInstant();
            } catch (DateTimeParseException e) {
                problems.add(label + ": a date and time such as 2026-11-30T14:00 (UTC) (ignored).");
                return null;
            }
        }
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static String blank(@Nullable String value) {
        return value == null ? "" : value;
    }
}
