package com.payorch.chaos.workload;

import com.payorch.chaos.workload.Plan.Step;
import com.payorch.chaos.workload.Requests.Answer;
import com.payorch.chaos.workload.Requests.Request;
import com.payorch.chaos.workload.WorkloadTargets.Merchant;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Customer-action payments (issue 24): a share of the sandbox merchant's creates name {@code pm_card_3ds} or
 * {@code pm_card_3ds_declined} and a {@code returnUrl}, and the client then plays the customer against the sandbox's
 * page: {@code GET nextAction.url}, the form's one-time {@code token} read from the HTML, {@code POST decision=approve}
 * or {@code decline} (form-urlencoded, no API key). How, drawn from the step (so a seed plans the same):
 * <ul>
 *   <li>{@link Mode#ANSWER}: one submit (sent again once if lost), then in half of them the merchant forwards the
 *       return: {@code POST /v1/payments/{id}/complete {}};</li>
 *   <li>{@link Mode#DOUBLE_SUBMIT}: the same form posted twice at once, to two instances;</li>
 *   <li>{@link Mode#RACING_COMPLETE}: the submit and the merchant's {@code complete} at once;</li>
 *   <li>{@link Mode#ABANDON}: the customer looks at the page (or not) and never answers: the expiry job must settle
 *       the payment ({@code payments.customer-action.expires-after}, short in the campaign's world).</li>
 * </ul>
 * The returnUrl is never served: the client does not follow the 303. Every request goes through {@link Requests},
 * so it is in the history like the others (operations {@code customer-page}, {@code customer-decision},
 * {@code complete}); the checker's {@code customer-actions-settle-once} reads the decisions from it.
 */
final class CustomerActions {

    /** Where the customer is sent back to: nothing listens there, the client does not follow the redirect. */
    static final String RETURN_URL = "http://localhost:9/return?from=chaos";

    /** Of the sandbox merchant's creates, those whose {@link Step#share} is at least this (about 14 %). */
    static final int SHARE_FROM = 86;

    /**
     * How long the customer's browser waits for the page and for the form's answer: longer than an API client (a
     * person waits), so that a slow page is not an abandon.
     */
    static final java.time.Duration BROWSER_PATIENCE = java.time.Duration.ofSeconds(8);

    /** How the customer (and the merchant) answer. */
    enum Mode { ANSWER, DOUBLE_SUBMIT, RACING_COMPLETE, ABANDON }

    private static final Pattern INPUT = Pattern.compile("<input\\b[^>]*>", Pattern.CASE_INSENSITIVE);
    private static final Pattern TOKEN_NAME = Pattern.compile("\\bname\\s*=\\s*[\"']token[\"']",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern VALUE = Pattern.compile("\\bvalue\\s*=\\s*\"([^\"]*)\"|\\bvalue\\s*=\\s*'([^']*)'",
            Pattern.CASE_INSENSITIVE);

    private final Requests requests;
    private final Known known;
    private final BiFunction<String, Request, Answer> untilAnswered;
    private final Function<List<Supplier<Answer>>, List<Answer>> all;

    /**
     * @param untilAnswered sends a request again under its key while lost, in progress or 5xx
     * @param all runs the calls at once (one lane each) and returns their answers in order
     */
    CustomerActions(Requests requests, Known known, BiFunction<String, Request, Answer> untilAnswered,
                    Function<List<Supplier<Answer>>, List<Answer>> all) {
        this.requests = requests;
        this.known = known;
        this.untilAnswered = untilAnswered;
        this.all = all;
    }

    static boolean applies(Merchant merchant, Step step) {
        return merchant.routing().trim().equals("sandbox") && step.share() >= SHARE_FROM;
    }

    static boolean isCustomerActionMethod(@Nullable String paymentMethod) {
        return paymentMethod != null && paymentMethod.startsWith("pm_card_3ds");
    }

    static String paymentMethod(Step step) {
        return step.tokenRoll() < 70 ? "pm_card_3ds" : "pm_card_3ds_declined";
    }

    static Mode mode(Step step) {
        int roll = (int) Math.floorMod(step.pick() >>> 40, 100L);
        return roll < 40 ? Mode.ANSWER : roll < 60 ? Mode.DOUBLE_SUBMIT : roll < 80 ? Mode.RACING_COMPLETE
                : Mode.ABANDON;
    }

    /** The declined token's customer declines; the other's mostly approves, one in ten declines after all. */
    static String decision(Step step, String paymentMethod) {
        if (paymentMethod.equals("pm_card_3ds_declined")) {
            return "decline";
        }
        return Math.floorMod(step.pick() >>> 20, 10L) == 0 ? "decline" : "approve";
    }

    /**
     * Plays the customer of the payment the create answered ({@code created}: its 2xx body).
     *
     * @param completeKey the Idempotency-Key of the merchant's {@code complete}
     */
    void act(String process, Step step, Merchant merchant, String created, String completeKey) {
        Mode mode = mode(step);
        JsonNode payment = Known.JSON.readTree(created);
        String id = payment.path("id").asString("");
        String paymentMethod = payment.path("paymentMethod").asString("");
        String url = nextActionUrl(payment);
        if (url == null) {
            url = awaitNextAction(process, step, merchant, id);
        }
        if (url == null || mode == Mode.ABANDON && Math.floorMod(step.pick() >>> 8, 2L) == 0) {
            return; // never answers, never even looks
        }
        URI uri = URI.create(url);
        // The page of any instance will do: the host in the URL may be one that is down.
        String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        Answer page = page(process, step, path);
        if (page == null || mode == Mode.ABANDON) {
            return;
        }
        String token = token(page.body());
        if (token == null) {
            return;
        }
        String form = "token=" + URLEncoder.encode(token, StandardCharsets.UTF_8) + "&decision="
                + decision(step, paymentMethod);
        Map<String, String> formHeaders = new LinkedHashMap<>();
        formHeaders.put("Content-Type", "application/x-www-form-urlencoded");
        formHeaders.put("Accept", "text/html");
        Request submit = new Request("customer-decision", step.instances().get(2), "POST", path, formHeaders, form);
        Request complete = new Request("complete", step.instances().get(0), "POST", "/v1/payments/" + id
                + "/complete", idempotent(merchant, completeKey), "{}");
        switch (mode) {
            case DOUBLE_SUBMIT -> all.apply(List.of(() -> requests.send(process + ".2", submit, BROWSER_PATIENCE),
                    () -> requests.send(process + ".3", submit.to((submit.instance() + 1) % requests.instances()),
                            BROWSER_PATIENCE)));
            case RACING_COMPLETE -> all.apply(List.of(() -> requests.send(process + ".2", submit, BROWSER_PATIENCE),
                    () -> untilAnswered.apply(process + ".3", complete)));
            default -> {
                Answer answer = requests.send(process, submit, BROWSER_PATIENCE);
                if (answer.lost()) {
                    // A browser's reload of the form: the same token again (409 if the first one was taken).
                    answer = requests.send(process, submit.to((submit.instance() + 1) % requests.instances()),
                            BROWSER_PATIENCE);
                }
                if (answer.status() == 303 && Math.floorMod(step.pick() >>> 12, 2L) == 0) {
                    untilAnswered.apply(process, complete);
                }
            }
        }
        Answer read = requests.send(process, new Request("read", step.instances().get(1), "GET",
                "/v1/payments/" + id, Workload.auth(merchant), null));
        if (read.ok()) {
            known.payment(merchant, read.body());
        }
    }

    /** A create whose answer did not show the action yet (a fault delayed it): a few reads. */
    private @Nullable String awaitNextAction(String process, Step step, Merchant merchant, String id) {
        if (id.isEmpty()) {
            return null;
        }
        for (int i = 0; i < 3 && !Thread.currentThread().isInterrupted(); i++) {
            pause(300);
            Answer read = requests.send(process, new Request("read", step.instances().get(i % 3), "GET",
                    "/v1/payments/" + id, Workload.auth(merchant), null));
            if (read.ok()) {
                known.payment(merchant, read.body());
                JsonNode payment = Known.JSON.readTree(read.body());
                String url = nextActionUrl(payment);
                if (url != null || !isOpen(payment.path("status").asString(""))) {
                    return url;
                }
            }
        }
        return null;
    }

    private @Nullable Answer page(String process, Step step, String path) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Accept", "text/html");
        Request get = new Request("customer-page", step.instances().get(1), "GET", path, headers, null);
        for (int attempt = 0; attempt < 3 && !Thread.currentThread().isInterrupted(); attempt++) {
            Answer answer = requests.send(process, get, BROWSER_PATIENCE);
            if (answer.status() == 200) {
                return answer;
            }
            if (!answer.lost() && answer.status() < 500) {
                return null;
            }
            pause(200L << attempt);
            get = get.to((get.instance() + 1) % requests.instances());
        }
        return null;
    }

    static @Nullable String nextActionUrl(JsonNode payment) {
        JsonNode url = payment.path("nextAction").path("url");
        return url.isString() && !url.asString().isBlank() ? url.asString() : null;
    }

    /** The value of the form's hidden {@code token} input, whichever order its attributes come in. */
    static @Nullable String token(String html) {
        Matcher input = INPUT.matcher(html);
        while (input.find()) {
            String tag = input.group();
            if (TOKEN_NAME.matcher(tag).find()) {
                Matcher value = VALUE.matcher(tag);
                if (value.find()) {
                    return unescape(value.group(1) != null ? value.group(1) : value.group(2));
                }
            }
        }
        return null;
    }

    private static String unescape(String value) {
        return value.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&#x2F;", "/").replace("&#x3D;", "=").replace("&#43;", "+").replace("&amp;", "&");
    }

    private static boolean isOpen(String status) {
        return status.equals("PENDING") || status.equals("PROCESSING") || status.isEmpty();
    }

    private static Map<String, String> idempotent(Merchant merchant, String key) {
        Map<String, String> headers = Workload.auth(merchant);
        headers.put("Idempotency-Key", key);
        headers.put("Content-Type", "application/json");
        return headers;
    }

    /** The customer's own pace between looks at the payment. */
    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The modes a thousand steps plan, for {@code PlanIT}. */
    static List<Mode> modes(List<Step> steps) {
        List<Mode> modes = new ArrayList<>();
        steps.forEach(step -> modes.add(mode(step)));
        return modes;
    }
}
