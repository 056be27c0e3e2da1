package com.payorch.hostile;

import static com.payorch.hostile.HostileRequests.NUMBERS;
import static com.payorch.hostile.HostileRequests.escape;

import com.payorch.hostile.HostileRequest.Category;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The contract-v3 payment requests of the generator: creates with hostile `returnUrl` and `captureMethod`, and
 * capture, cancel and complete with hostile bodies, ids, states and `If-Match` headers.
 *
 * <p>Every one must be refused before any change. A create names the paid booking (409 after all validation). An
 * action on a payment it could change (a capture or cancel of the AUTHORIZED hold, a complete of the payment waiting
 * for its customer) either has a body the contract refuses whatever the state, or carries an `If-Match` that cannot
 * match (412); an action on any other payment is refused by its state (409), its owner (404) or its id.
 */
final class PaymentActionRequests {

    /** A body, and whether the contract refuses it (400) whatever the payment's state and version. */
    private record Body(String json, boolean refused) {

        static Body refused(String json) {
            return new Body(json, true);
        }

        /** Valid, or not surely refused: sent to a payment it could change only with a stale If-Match. */
        static Body valid(String json) {
            return new Body(json, false);
        }
    }

    private static final String[] RETURN_URLS = {"http://shop.example.com/return", "javascript:alert(1)",
            "data:text/html,<script>alert(1)</script>", "ftp://shop.example.com/", "//shop.example.com/return",
            "/return", "https://", "https:///return", "https://user:secret@shop.example.com/", "https://[::1",
            "http://localhost.evil.example/", "https://shop.example.com/a b", "https://shöp.example.com/",
            "https://shop_example.com/", "https://shop.example.com/\\u202eevil", "https://shop.example.com/\\ud800",
            "", " ", "HTTPS://SHOP.EXAMPLE.COM/R", "http://localhost:8080/return?order=7", "http://127.0.0.1/",
            "http://[::1]/", "https://shop.example.com/return?order=7#top", "https://shop.example.com/%00",
            "https://shop.example.com/%zz", "mailto:guest@example.com", "https://shop.example.com:99999/",
            "https://shop.example.com/\\\\evil", "https:shop.example.com", "http://localhost@evil.example/"};
    private static final String[] CAPTURE_METHODS = {"\"manual\"", "\"automatic\"", "\"MANUAL\"", "\"manual \"",
            "\"\"", "null", "1", "true", "[\"manual\"]", "{\"manual\": true}", "\"manual\\u0000\"", "\"later\""};
    private static final String[] PAYMENT_METHODS = {"pm_card_3ds", "pm_card_3ds_declined", "pm_card_disputed",
            "pm_card_capture_fails", "pm_card_ok"};
    private static final int[] CONTROLS = {0x00, 0x01, 0x07, 0x08, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f};

    private final long seed;
    private final HostileRequests.Targets t;
    private final V3Targets v;

    PaymentActionRequests(long seed, HostileRequests.Targets targets) {
        this.seed = seed;
        this.t = targets;
        this.v = targets.v3();
    }

    // ---- create ----------------------------------------------------------------------------------------------------

    /** A create of the paid booking with hostile v3 members: 400, or 409 `booking_already_paid` once valid. */
    HostileRequest create(long index, Random r) {
        Map<String, String> members = new LinkedHashMap<>();
        int returnUrl = r.nextInt(4);
        if (returnUrl > 0) {
            members.put("returnUrl", returnUrl == 1 ? controlled(r, "https://shop.example.com/return?order=7")
                    : returnUrl == 2 ? "\"" + RETURN_URLS[r.nextInt(RETURN_URLS.length)] + "\""
                    : List.of("\"https://shop.example.com/" + "r".repeat(1960 + r.nextInt(80)) + "\"", "7", "true",
                    "null", "[\"https://shop.example.com/\"]", "{\"url\": \"https://shop.example.com/\"}")
                    .get(r.nextInt(6)));
        }
        if (returnUrl == 0 || r.nextBoolean()) {
            members.put("captureMethod", CAPTURE_METHODS[r.nextInt(CAPTURE_METHODS.length)]);
        }
        if (r.nextBoolean()) {
            members.put("paymentMethod", "\"" + PAYMENT_METHODS[r.nextInt(PAYMENT_METHODS.length)] + "\"");
        }
        if (r.nextInt(4) == 0) {
            members.put("amount", List.of("0", "-1", "-12000", "100000000001", "1", NUMBERS[r.nextInt(NUMBERS.length)])
                    .get(r.nextInt(6)));
        }
        String body = HostileRequests.createBody(t.paidBooking(), members);
        return new HostileRequest(index, Category.CREATE_V3, "create " + escape(members.toString()), "POST",
                "/v1/payments").header("Authorization", "Bearer " + t.apiKey())
                .header("Idempotency-Key", key(index)).header("Content-Type", "application/json").json(body);
    }

    /** A JSON string: the text with one control character, raw or escaped, somewhere in it. */
    private static String controlled(Random r, String text) {
        int c = CONTROLS[r.nextInt(CONTROLS.length)];
        String character = r.nextBoolean() ? new String(Character.toChars(c)) : String.format("\\u%04x", c);
        int at = r.nextInt(text.length() + 1);
        return "\"" + text.substring(0, at) + character + text.substring(at) + "\"";
    }

    // ---- capture, cancel, complete ---------------------------------------------------------------------------------

    HostileRequest capture(long index, Random r) {
        Body body = switch (r.nextInt(16)) {
            case 0 -> Body.valid("{}");
            case 1 -> Body.valid("{\"amount\": " + (1 + r.nextInt((int) v.holdAmount())) + "}");
            case 2 -> Body.valid("{\"amount\": null}");
            case 3 -> Body.refused("{\"amount\": 0}");
            case 4 -> Body.refused("{\"amount\": -" + (1 + r.nextInt(100_000)) + "}");
            case 5 -> Body.refused("{\"amount\": " + (v.holdAmount() + 1 + r.nextInt(1_000_000)) + "}");
            case 6 -> Body.refused("{\"amount\": " + List.of("100000000001", "9223372036854775807",
                    "9223372036854775808", "-9223372036854775809", "1" + "0".repeat(400)).get(r.nextInt(5)) + "}");
            case 7 -> Body.refused("{\"amount\": \"" + (1 + r.nextInt(12_000)) + "\"}");
            case 8 -> Body.refused("{\"amount\": 12.5}");
            case 9 -> Body.valid("{\"amount\": " + NUMBERS[r.nextInt(NUMBERS.length)] + "}");
            case 10 -> Body.refused("{\"amount\": 5000, \"" + List.of("tip", "currency", "Amount", "reason",
                    "finalCapture", "").get(r.nextInt(6)) + "\": 1}");
            case 11 -> Body.refused(List.of("[5000]", "5000", "\"all\"", "true", "null").get(r.nextInt(5)));
            case 12 -> Body.refused("{\"amount\": 5000");
            case 13 -> Body.refused("{\"amount\": {\"value\": 5000, \"currency\": \"JPY\"}}");
            case 14 -> Body.valid("{\"amount\": 1, \"amount\": 2}");
            default -> Body.valid("");
        };
        return action(index, Category.CAPTURE, "capture", body, v.hold(), v.awaitingCustomer(), r);
    }

    HostileRequest cancel(long index, Random r) {
        Body body = switch (r.nextInt(14)) {
            case 0 -> Body.valid("{}");
            case 1 -> Body.valid("");
            case 2 -> Body.valid("{\"reason\": \"guest changed plans\"}");
            case 3 -> Body.valid("{\"reason\": null}");
            case 4 -> Body.valid("{\"reason\": \"" + "\ud83d\ude00".repeat(200) + "\"}");
            case 5 -> Body.refused("{\"reason\": \"" + "x".repeat(201 + r.nextInt(5000)) + "\"}");
            case 6 -> Body.refused("{\"reason\": " + controlled(r, "guest changed plans") + "}");
            case 7 -> Body.refused("{\"reason\": " + List.of("7", "true", "[\"x\"]", "{\"text\": \"x\"}")
                    .get(r.nextInt(4)) + "}");
            case 8 -> Body.refused("{\"reason\": \"x\", \"" + List.of("amount", "Reason", "cancellationReason",
                    "force").get(r.nextInt(4)) + "\": 1}");
            case 9 -> Body.refused("{\"reason\":");
            case 10 -> Body.refused(List.of("[]", "\"cancel\"", "0", "null").get(r.nextInt(4)));
            case 11 -> Body.valid("{\"reason\": \"" + List.of("\\u0085", "\\u2028", "\\u202e", "\\ud800", "\\ufeff")
                    .get(r.nextInt(5)) + "\"}");
            case 12 -> Body.refused("{\"reason\": \"" + "x".repeat(60_000) + "\"}");
            default -> Body.refused("{\"reason\": \"" + "x".repeat(70_000) + "\"}");
        };
        return action(index, Category.CANCEL, "cancel", body, v.hold(), v.awaitingCustomer(), r);
    }

    HostileRequest complete(long index, Random r) {
        Body body = switch (r.nextInt(14)) {
            case 0 -> Body.valid("{}");
            case 1 -> Body.valid("");
            case 2 -> Body.valid("{\"redirectResult\": \"" + redirectResult(r, 20 + r.nextInt(600)) + "\"}");
            case 3 -> Body.valid("{\"redirectResult\": null}");
            case 4 -> Body.valid("{\"redirectResult\": \"" + redirectResult(r, 4096) + "\"}");
            case 5 -> Body.refused("{\"redirectResult\": \"\"}");
            case 6 -> Body.refused("{\"redirectResult\": \"" + redirectResult(r, 4097 + r.nextInt(20_000)) + "\"}");
            case 7 -> Body.refused("{\"redirectResult\": " + controlled(r, redirectResult(r, 1 + r.nextInt(300)))
                    + "}");
            case 8 -> Body.refused("{\"redirectResult\": " + List.of("42", "false", "[\"Ab12\"]",
                    "{\"redirectResult\": \"Ab12\"}").get(r.nextInt(4)) + "}");
            case 9 -> Body.refused(List.of("{\"redirectResult\": \"Ab12\", \"payload\": \"x\"}",
                    "{\"details\": {\"redirectResult\": \"Ab12\"}}", "{\"MD\": \"x\", \"PaRes\": \"y\"}",
                    "{\"threeDSResult\": \"x\"}", "{\"RedirectResult\": \"Ab12\"}").get(r.nextInt(5)));
            case 10 -> Body.refused(List.of("{\"redirectResult\": \"Ab12\"", "redirectResult=Ab12", "[]", "null")
                    .get(r.nextInt(4)));
            case 11 -> Body.valid("{\"redirectResult\": \"" + List.of("\\u202eevil", "\\ud83d\\ude00", "\\ud800",
                    "\u00e9\u0301", "\\u2028", "\\u0085", "%00", "<script>").get(r.nextInt(8)) + "\"}");
            case 12 -> Body.refused("{\"redirectResult\": \"" + "A".repeat(60_000) + "\"}");
            default -> Body.refused("{\"redirectResult\": \"" + "A".repeat(70_000) + "\"}");
        };
        return action(index, Category.COMPLETE, "complete", body, v.awaitingCustomer(), v.hold(), r);
    }

    /** What a browser brings back from a connector's page: base64url-ish text. */
    private static String redirectResult(Random r, int length) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=";
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    /**
     * The action on a payment: mostly the one it could change ({@code live}), else the completed payment, one in the
     * wrong state for it ({@code wrongState}), another merchant's, or a bad id; sometimes with another merchant's key.
     */
    private HostileRequest action(long index, Category category, String action, Body body, String live,
                                  String wrongState, Random r) {
        String target = switch (r.nextInt(10)) {
            case 0, 1, 2, 3 -> live;
            case 4, 5 -> t.completedPayment();
            case 6 -> wrongState;
            case 7 -> t.foreignPayment();
            default -> badId(index, r);
        };
        String apiKey = !target.equals(t.foreignPayment()) && r.nextInt(8) == 0
                ? t.foreignKeys().get(r.nextInt(t.foreignKeys().size())) : t.apiKey();
        String path = "/v1/payments/" + target + "/" + action;
        HostileRequest request = new HostileRequest(index, category, action + " " + describe(target) + " "
                + abbreviate(body.json()), "POST", path)
                .header("Authorization", "Bearer " + apiKey)
                .header("Idempotency-Key", key(index))
                .header("Content-Type", "application/json");
        if (target.equals(live) && !body.refused()) {
            request.header("If-Match", staleIfMatch(r, versionOf(live)));
            request.what += " (stale If-Match)";
        } else if (r.nextInt(4) == 0) {
            request.header("If-Match", List.of("*", "\"" + versionOf(target) + "\"",
                    staleIfMatch(r, versionOf(target))).get(r.nextInt(3)));
        }
        request.json(body.json());
        if (request.body.length > 64 * 1024) {
            request.closeAfter = true;
        }
        return request;
    }

    private String badId(long index, Random r) {
        return List.of("pay_unknown" + index, "pay_" + "x".repeat(300), "%00", "pay_%C0%80", "pay_%ED%A0%80",
                t.completedPayment().toUpperCase(java.util.Locale.ROOT), v.hold() + "%20", "%2e%2e", v.dispute(),
                "pay_\u00e9", "pay_%22%27", v.hold() + ";v=1").get(r.nextInt(12));
    }

    private long versionOf(String paymentId) {
        if (paymentId.equals(v.hold())) {
            return v.holdVersion();
        }
        if (paymentId.equals(v.awaitingCustomer())) {
            return v.awaitingVersion();
        }
        return v.completedVersion();
    }

    private String describe(String paymentId) {
        if (paymentId.equals(v.hold())) {
            return "the AUTHORIZED hold";
        }
        if (paymentId.equals(v.awaitingCustomer())) {
            return "the REQUIRES_ACTION payment";
        }
        if (paymentId.equals(t.completedPayment())) {
            return "the COMPLETED payment";
        }
        return paymentId.equals(t.foreignPayment()) ? "another merchant's payment" : abbreviate(paymentId);
    }

    // ---- If-Match --------------------------------------------------------------------------------------------------

    /**
     * A valid capture, cancel, complete or retry of a payment it could change, with `If-Match` headers none of which
     * can match: 412 `version_mismatch` (or 409 for the retry of the completed payment), nothing changed.
     */
    HostileRequest ifMatch(long index, Random r) {
        String[] actions = {"capture", "cancel", "complete", "retry"};
        String action = actions[r.nextInt(actions.length)];
        String paymentId = switch (action) {
            case "complete" -> v.awaitingCustomer();
            case "retry" -> t.completedPayment();
            default -> v.hold();
        };
        long version = versionOf(paymentId);
        HostileRequest request = new HostileRequest(index, Category.IF_MATCH, "", "POST",
                "/v1/payments/" + paymentId + "/" + action)
                .header("Authorization", "Bearer " + t.apiKey())
                .header("Idempotency-Key", key(index))
                .header("Content-Type", "application/json");
        int lines = r.nextInt(6) == 0 ? 2 + r.nextInt(r.nextBoolean() ? 3 : 300) : 1;
        String first = staleIfMatch(r, version);
        for (int i = 0; i < lines; i++) {
            request.header("If-Match", i == 0 ? first : staleIfMatch(r, version));
        }
        if (r.nextInt(10) == 0) {
            request.header("If-Match", "\"" + "1".repeat(9_000) + "\"");
            request.closeAfter = true;
        }
        request.what = action + " " + describe(paymentId) + ", " + lines + " If-Match line(s), first "
                + escape(first.length() > 40 ? first.substring(0, 40) + "…" : first);
        return request.json(action.equals("capture") && r.nextBoolean() ? "{\"amount\": 1}" : "{}");
    }

    /** An If-Match line that cannot match a payment of this version (RFC 9110: strong comparison, valid syntax). */
    static String staleIfMatch(Random r, long version) {
        String current = "\"" + version + "\"";
        String line = switch (r.nextInt(16)) {
            case 0 -> "\"" + (version + 1 + r.nextInt(1000)) + "\"";
            case 1 -> "\"0\"";
            case 2 -> "W/" + current;
            case 3 -> Long.toString(version);
            case 4 -> "\"" + version;
            case 5 -> current + " " + current;
            case 6 -> "*, \"" + version;
            case 7 -> "\"0" + version + "\"";
            case 8 -> "\"" + version + " \"";
            case 9 -> "\"-" + version + "\"";
            case 10 -> "\"" + "9".repeat(30) + "\"";
            case 11 -> "W/*";
            case 12 -> "\"\"";
            case 13 -> "\"" + (version + 1) + "\", W/" + current;
            case 14 -> "'" + version + "'";
            default -> "\"" + "1".repeat(1 + r.nextInt(6_000)) + "\"";
        };
        return line.equals(current) ? "W/" + current : line;
    }

    private String key(long index) {
        return "hostile-" + seed + "-" + index;
    }

    private static String abbreviate(String text) {
        return escape(text.length() > 60 ? text.substring(0, 60) + "…" : text);
    }
}
