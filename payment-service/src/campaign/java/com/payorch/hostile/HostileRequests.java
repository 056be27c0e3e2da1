package com.payorch.hostile;

import com.payorch.fakes.FakeAdyen;
import com.payorch.fakes.FakeStripe;
import com.payorch.hostile.HostileRequest.Category;
import com.payorch.testsupport.SignedWebhooks;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The seeded generator of hostile requests. Request {@code i} depends only on the seed and {@code i} (its own random
 * stream), so a failing request is reproduced by its number whatever the clients' interleaving was.
 *
 * <p>Every request that reaches a state-changing endpoint with valid credentials is built so that the service must
 * refuse it before any change: a create names a booking that is already paid (409 after all validation), a refund
 * asks more than is refundable or is malformed, a retry targets a COMPLETED payment, webhooks are forged, malformed,
 * about nothing known, or exact replays of one already applied. So the schema's row counts must not move. Contract
 * v3's requests (captures, cancels, completes, If-Match, disputes, the sandbox's page) follow the same rule: see
 * {@link PaymentActionRequests}, {@link DisputeRequests} and {@link SandboxPageRequests}.
 */
final class HostileRequests {

    /** What the generator aims at: set up by the test before the run. */
    record Targets(String apiKey, List<String> foreignKeys, String paidBooking, String completedPayment,
                   long completedAmount, String foreignPayment, String storedKey, String storedBody,
                   String sandboxSecret, String sandboxWebhookId, String sandboxWebhookBody,
                   String stripeMerchant, String stripeSecret, String stripeEventBody,
                   String adyenMerchant, String adyenAccount, String adyenHmacKey, String adyenBatchBody,
                   V3Targets v3) {
    }

    private static final Category[] CATEGORIES = Category.values();
    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE",
            "PROPFIND", "get", "Post", "X-HOSTILE", "M-SEARCH", "BREW"};
    private static final String[] PATH_STARTS = {"/", "/v1", "/v1/", "/v1/payments", "/v1/payments/", "/v1/bookings/",
            "/v1/events/", "/v1/refunds/", "/v1/webhooks/", "/v1/webhooks/sandbox", "/v1/webhooks/stripe/",
            "/v1/webhooks/adyen/", "/v1/sandbox/charges", "/actuator", "/actuator/", "/actuator/health/",
            "/v3/api-docs", "/swagger-ui/", "/console/", "/bench/", "/v2/payments", "/V1/PAYMENTS", "//v1//payments",
            "/v1/payments/../events", "/v1/%2e%2e/actuator", "/v1/payments%2Fpay_x", "/v1/payments;jsessionid=1",
            "/v1/disputes", "/v1/disputes/", "/sandbox/authenticate/", "/sandbox/", "/v1/disputes/../payments"};
    private static final String[] UNICODE_JSON = {"\\ud800", "\\udfff", "\\udc00\\ud800", "\\ud83d", "\\ud83d\\ude00",
            "\u200f\u202eevil\u202c", "\ufeff", "\u200d\u200b", "e\u0301\u0301\u0301", "\ud83d\ude00\ud83c\udff3",
            "\\uffff", "\\ufffe", "\uE000", "\\u0000", "Ａｍｏｕｎｔ", "\u0130\u0131", "\u2028\u2029"};
    /** Raw UTF-8 sequences that are not well-formed: overlong, surrogates, beyond U+10FFFF, stray bytes, truncated. */
    private static final byte[][] BAD_UTF8 = {{(byte) 0xC0, (byte) 0x80}, {(byte) 0xC1, (byte) 0xBF},
            {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xED, (byte) 0xBF, (byte) 0xBF},
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xFF}, {(byte) 0xFE}, {(byte) 0x80},
            {(byte) 0xE2, (byte) 0x82}, {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}};
    static final String[] NUMBERS = {"1e400", "-0", "0.0", "-0.0", "12000.0", "1.2E4", "1.2e+4",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "18446744073709551616", "1e-400", "0x10", "+5", "012000", ".5", "5.", "1e9999999999", "NaN", "Infinity",
            "-Infinity", "1E+2147483648", "1E-2147483649", "100000000000", "100000000001", "0.000000001e12",
            "1" + "0".repeat(400), "9".repeat(1200), "0." + "0".repeat(1100) + "1", "1e", "--1", "1_000", "١٢٣"};

    private final long seed;
    private final Targets t;
    private final PaymentActionRequests actions;
    private final DisputeRequests disputes;
    private final SandboxPageRequests sandboxPage;

    HostileRequests(long seed, Targets targets) {
        this.seed = seed;
        this.t = targets;
        this.actions = new PaymentActionRequests(seed, targets);
        this.disputes = new DisputeRequests(seed, targets);
        this.sandboxPage = new SandboxPageRequests(targets);
    }

    HostileRequest generate(long index) {
        Random r = new Random(new SplittableRandom(seed).split().nextLong() ^ (index * 0x9E3779B97F4A7C15L));
        Category category = CATEGORIES[r.nextInt(CATEGORIES.length)];
        return switch (category) {
            case JSON_MALFORMED -> malformed(index, r);
            case JSON_NESTED -> nested(index, r);
            case JSON_NUMBERS -> numbers(index, r);
            case JSON_UNICODE -> unicode(index, r);
            case JSON_CONTROL -> control(index, r);
            case JSON_DUPLICATES -> duplicates(index, r);
            case BODY_OVERSIZE -> oversizeBody(index, r);
            case BODY_FRAMING -> framing(index, r);
            case HEADERS_OVERSIZE -> oversizeHeaders(index, r);
            case CONTENT_TYPE -> contentType(index, r);
            case PATH_METHOD -> pathAndMethod(index, r);
            case HEADER_BYTES -> headerBytes(index, r);
            case API_KEY -> apiKey(index, r);
            case IDEMPOTENCY_KEY -> idempotencyKey(index, r);
            case QUERY -> query(index, r);
            case WEBHOOK_SANDBOX_FORGED -> sandboxForged(index, r, Category.WEBHOOK_SANDBOX_FORGED,
                    r.nextBoolean() ? t.sandboxWebhookBody() : sandboxBody(t.completedPayment(), "payment.failed"),
                    t.sandboxWebhookId(), t.sandboxWebhookBody());
            case WEBHOOK_SANDBOX_REPLAY -> sandboxReplay(index, r, Category.WEBHOOK_SANDBOX_REPLAY,
                    t.sandboxWebhookId(), t.sandboxWebhookBody());
            case WEBHOOK_SANDBOX_MALFORMED -> sandboxMalformed(index, r);
            case WEBHOOK_STRIPE_FORGED -> stripeForged(index, r);
            case WEBHOOK_STRIPE_REPLAY -> stripeReplay(index);
            case WEBHOOK_STRIPE_MALFORMED -> stripeMalformed(index, r);
            case WEBHOOK_ADYEN_FORGED -> adyenForged(index, r);
            case WEBHOOK_ADYEN_REPLAY -> adyenReplay(index);
            case WEBHOOK_ADYEN_MALFORMED -> adyenMalformed(index, r);
            case CREATE_V3 -> actions.create(index, r);
            case CAPTURE -> actions.capture(index, r);
            case CANCEL -> actions.cancel(index, r);
            case COMPLETE -> actions.complete(index, r);
            case IF_MATCH -> actions.ifMatch(index, r);
            case DISPUTE_READ -> disputes.read(index, r);
            case WEBHOOK_DISPUTE_FORGED -> sandboxForged(index, r, Category.WEBHOOK_DISPUTE_FORGED,
                    disputes.forgedBody(r), t.v3().disputeWebhookId(), t.v3().disputeWebhookBody());
            case WEBHOOK_DISPUTE_REPLAY -> sandboxReplay(index, r, Category.WEBHOOK_DISPUTE_REPLAY,
                    t.v3().disputeWebhookId(), t.v3().disputeWebhookBody());
            case WEBHOOK_DISPUTE_MALFORMED -> sandboxSigned(index, Category.WEBHOOK_DISPUTE_MALFORMED,
                    disputes.malformedBody(index, r));
            case SANDBOX_PAGE -> sandboxPage.request(index, r);
        };
    }

    // ---- state-changing API requests that must be refused --------------------------------------------------------

    /** A create, a retry or a refund with valid credentials and a fresh key; the body is the caller's. */
    private HostileRequest authorisedPost(long index, Category category, String what, Random r) {
        String path = switch (r.nextInt(9)) {
            case 0 -> "/v1/payments/" + t.completedPayment() + "/retry";
            case 1 -> "/v1/payments/" + t.completedPayment() + "/refunds";
            // contract v3: refused by the completed payment's state once the body is valid
            case 2 -> "/v1/payments/" + t.completedPayment() + "/capture";
            case 3 -> "/v1/payments/" + t.completedPayment() + "/cancel";
            case 4 -> "/v1/payments/" + t.completedPayment() + "/complete";
            default -> "/v1/payments";
        };
        return new HostileRequest(index, category, what + " to " + path, "POST", path)
                .header("Authorization", "Bearer " + t.apiKey())
                .header("Idempotency-Key", "hostile-" + seed + "-" + index)
                .header("Content-Type", "application/json");
    }

    /** A create that passes every check but the booking guard (its booking is paid): 409 if it gets that far. */
    private String createBody(Map<String, String> override) {
        return createBody(t.paidBooking(), override);
    }

    /** A create of the paid booking with the members given (a null value leaves the member out). */
    static String createBody(String paidBooking, Map<String, String> override) {
        Map<String, String> members = new java.util.LinkedHashMap<>();
        members.put("bookingId", quote(paidBooking));
        members.put("amount", "12000");
        members.put("currency", "\"JPY\"");
        members.put("paymentMethod", "\"pm_card_ok\"");
        members.put("description", "\"Room 101\"");
        members.putAll(override);
        StringBuilder json = new StringBuilder("{");
        members.forEach((name, value) -> {
            if (value != null) {
                json.append(json.length() > 1 ? ", " : "").append('"').append(name).append("\": ").append(value);
            }
        });
        return json.append('}').toString();
    }

    private String refundBody(String amount) {
        return "{\"amount\": " + amount + ", \"reason\": \"requested_by_customer\"}";
    }

    /**
     * A body for the chosen path: refunds of more than refundable, captures, cancels and completes (of the completed
     * payment), create bodies otherwise.
     */
    private String bodyFor(HostileRequest request, Map<String, String> override, String amount) {
        String path = new String(request.target, StandardCharsets.UTF_8);
        if (path.endsWith("/refunds")) {
            return refundBody(amount == null ? Long.toString(t.completedAmount() + 1) : amount);
        }
        if (path.endsWith("/retry")) {
            return "{}";
        }
        if (path.endsWith("/capture")) {
            return "{\"amount\": " + (amount == null ? "1" : amount) + "}";
        }
        if (path.endsWith("/cancel")) {
            return amount == null ? "{\"reason\": \"guest changed plans\"}" : "{\"reason\": " + amount + "}";
        }
        if (path.endsWith("/complete")) {
            return amount == null ? "{\"redirectResult\": \"Ab12Cd34\"}" : "{\"redirectResult\": " + amount + "}";
        }
        Map<String, String> members = new HashMap<>(override);
        if (amount != null) {
            members.put("amount", amount);
        }
        return createBody(members);
    }

    private HostileRequest malformed(long index, Random r) {
        HostileRequest request = authorisedPost(index, Category.JSON_MALFORMED, "malformed", r);
        String valid = bodyFor(request, Map.of(), null);
        String body = switch (r.nextInt(14)) {
            // never empty: an empty refund body is a valid refund of all that is refundable
            case 0 -> valid.substring(0, 1 + r.nextInt(valid.length() - 1));
            case 1 -> valid.replace("\"", "'");
            case 2 -> valid.replace("}", ",}");
            case 3 -> "/* c */" + valid;
            case 4 -> valid.replace(": 12000", ": NaN").replace("\"amount\": " + (t.completedAmount() + 1), "\"amount\": NaN");
            case 5 -> "{\"amount\":}";
            case 6 -> " \t\r\n ";
            case 7 -> List.of("[]", "null", "true", "42", "\"x\"", "[{}]").get(r.nextInt(6));
            case 8 -> valid + valid;
            case 9 -> valid.replace(":", "=");
            case 10 -> "{" + "\"a\":1,".repeat(r.nextInt(3000)) + "}";
            case 11 -> flip(valid, r);
            case 12 -> valid.replace("{", "{\"unknown\": true, ");
            default -> "{\"bookingId\" \"x\"}";
        };
        return request.json(body);
    }

    /** Replaces a few structural characters (never one inside a string: that could make another valid request). */
    private static String flip(String text, Random r) {
        char[] chars = text.toCharArray();
        List<Integer> structural = new java.util.ArrayList<>();
        for (int i = 0; i < chars.length; i++) {
            if ("{}[]\":,".indexOf(chars[i]) >= 0) {
                structural.add(i);
            }
        }
        for (int i = 0; i < 1 + r.nextInt(4); i++) {
            chars[structural.get(r.nextInt(structural.size()))] = "{}[]\":,\\ 0a".charAt(r.nextInt(11));
        }
        return new String(chars);
    }

    private HostileRequest nested(long index, Random r) {
        HostileRequest request = authorisedPost(index, Category.JSON_NESTED, "nested", r);
        int depth = r.nextInt(4) == 0 ? 1 + r.nextInt(40_000) : 1 + r.nextInt(2_000);
        boolean arrays = r.nextBoolean();
        boolean closed = r.nextInt(4) != 0;
        String open = arrays ? "[" : "{\"a\":";
        StringBuilder nest = new StringBuilder(open.repeat(depth)).append("1");
        if (closed) {
            nest.append((arrays ? "]" : "}").repeat(depth));
        }
        String body = switch (r.nextInt(3)) {
            case 0 -> nest.toString();
            case 1 -> createBody(Map.of("metadata", "{\"k\": " + nest + "}"));
            default -> createBody(Map.of("description", nest.toString()));
        };
        request.json(body);
        if (request.body.length > 64 * 1024) {
            request.closeAfter = true;
        }
        return request;
    }

    private HostileRequest numbers(long index, Random r) {
        HostileRequest request = authorisedPost(index, Category.JSON_NUMBERS, "number", r);
        String number = NUMBERS[r.nextInt(NUMBERS.length)];
        String body = switch (r.nextInt(4)) {
            case 0 -> bodyFor(request, Map.of("bookingId", number), null);
            case 1 -> bodyFor(request, Map.of("currency", number), null);
            default -> bodyFor(request, Map.of(), number);
        };
        return request.json(body);
    }

    private HostileRequest unicode(long index, Random r) {
        HostileRequest request = authorisedPost(index, Category.JSON_UNICODE, "unicode", r);
        String field = textFieldOf(request, List.of("description", "paymentMethod", "bookingId", "currency",
                "customerEmail", "metadata", "member", "returnUrl").get(r.nextInt(8)));
        boolean actionText = field.equals("reason") || field.equals("redirectResult");
        if (actionText && r.nextBoolean()) {
            byte[] bad = BAD_UTF8[r.nextInt(BAD_UTF8.length)];
            request.body(splice("{\"" + field + "\": \"pm@@\"}", "@@", bad));
            request.what = "unicode: bytes " + hex(bad) + " in " + field;
            return request;
        }
        if (actionText) {
            String text = UNICODE_JSON[r.nextInt(UNICODE_JSON.length)];
            request.what = "unicode: " + escape(text) + " in " + field;
            return request.json("{\"" + field + "\": \"" + text + "\"}");
        }
        if (r.nextBoolean()) {
            // raw bytes that are not UTF-8, inside a string
            byte[] bad = BAD_UTF8[r.nextInt(BAD_UTF8.length)];
            String template = field.equals("member") ? createBody(Map.of("X@@", "1"))
                    : createBody(Map.of(field.equals("metadata") ? "metadata" : field,
                            field.equals("metadata") ? "{\"k\": \"@@\"}"
                                    : field.equals("returnUrl") ? "\"https://shop.example.com/@@\"" : "\"pm@@\""));
            request.body(splice(template, "@@", bad));
            request.what = "unicode: bytes " + hex(bad) + " in " + field;
            return request;
        }
        String text = UNICODE_JSON[r.nextInt(UNICODE_JSON.length)];
        String body = switch (field) {
            case "metadata" -> createBody(Map.of("metadata", "{\"" + text + "\": \"" + text + "\"}"));
            case "member" -> createBody(Map.of(text, "1"));
            case "customerEmail" -> createBody(Map.of("customerEmail", "\"" + text + "@example.com\""));
            case "returnUrl" -> createBody(Map.of("returnUrl", "\"https://shop.example.com/" + text + "\""));
            default -> createBody(Map.of(field, "\"" + text + "\""));
        };
        request.what = "unicode: " + escape(text) + " in " + field;
        return request.json(body);
    }

    private HostileRequest control(long index, Random r) {
        HostileRequest request = authorisedPost(index, Category.JSON_CONTROL, "control", r);
        int c = r.nextInt(3) == 0 ? List.of(0x7f, 0x85, 0x9b, 0x2028).get(r.nextInt(4)) : r.nextInt(0x20);
        String field = textFieldOf(request, List.of("description", "paymentMethod", "bookingId", "customerEmail",
                "metadata", "returnUrl").get(r.nextInt(6)));
        boolean raw = r.nextBoolean();
        String character = raw ? new String(Character.toChars(c)) : String.format("\\u%04x", c);
        String value = "\"a" + character + "b\"";
        String body = switch (field) {
            case "metadata" -> createBody(Map.of("metadata", "{\"k\": " + value + "}"));
            case "customerEmail" -> createBody(Map.of(field, "\"a" + character + "b@example.com\""));
            case "returnUrl" -> createBody(Map.of(field, "\"https://shop.example.com/a" + character + "b\""));
            case "reason", "redirectResult" -> "{\"" + field + "\": " + value + "}";
            default -> createBody(Map.of(field, value));
        };
        request.what = "control: U+" + String.format("%04X", c) + (raw ? " raw" : " escaped") + " in " + field;
        return request.json(body);
    }

    /** The text field a cancel (`reason`) or a complete (`redirectResult`) has; for any other path, {@code field}. */
    private static String textFieldOf(HostileRequest request, String field) {
        String path = new String(request.target, StandardCharsets.UTF_8);
        if (path.endsWith("/cancel")) {
            return "reason";
        }
        return path.endsWith("/complete") ? "redirectResult" : field;
    }

    private HostileRequest duplicates(long index, Random r) {
        HostileRequest request = authorisedPost(index, Category.JSON_DUPLICATES, "duplicates", r);
        String valid = bodyFor(request, Map.of(), null);
        String body = switch (r.nextInt(5)) {
            case 0 -> valid.replace("{", "{\"amount\": 1, ");
            case 1 -> valid.replace("}", ", \"currency\": \"JPY\"}");
            case 2 -> createBody(Map.of("metadata", "{\"k\": \"a\", \"k\": \"b\"}"));
            case 3 -> valid.replace("{", "{" + "\"reason\": \"x\", ".repeat(2 + r.nextInt(500)));
            default -> valid.replace("{", "{\"Amount\": 1, \"AMOUNT\": 2, ");
        };
        return request.json(body);
    }

    // ---- framing, sizes, headers ---------------------------------------------------------------------------------

    private HostileRequest oversizeBody(long index, Random r) {
        HostileRequest request = authorisedPost(index, Category.BODY_OVERSIZE, "oversize body", r);
        int size = 64 * 1024 + 1 + r.nextInt(r.nextInt(8) == 0 ? 512 * 1024 : 16 * 1024);
        String filler = "x".repeat(size);
        request.json(createBody(Map.of("description", "\"" + filler + "\"")));
        request.closeAfter = true;
        if (r.nextBoolean()) {
            request.contentLength = false;
            request.header("Transfer-Encoding", "chunked");
            request.body(chunk(request.body, 1 + r.nextInt(16 * 1024)));
            request.what = "oversize body, chunked";
        }
        if (r.nextInt(4) == 0) {
            // to a webhook endpoint: read raw, before the signature is checked
            HostileRequest webhook = new HostileRequest(index, Category.BODY_OVERSIZE, "oversize webhook", "POST",
                    List.of("/v1/webhooks/sandbox", "/v1/webhooks/stripe/" + t.stripeMerchant(),
                            "/v1/webhooks/adyen/" + t.adyenMerchant()).get(r.nextInt(3)))
                    .header("Content-Type", "application/json").body(request.body);
            webhook.contentLength = request.contentLength;
            if (!request.contentLength) {
                webhook.header("Transfer-Encoding", "chunked");
            }
            webhook.closeAfter = true;
            return webhook;
        }
        return request;
    }

    private static byte[] chunk(byte[] body, int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + body.length / size * 8 + 16);
        for (int i = 0; i < body.length; i += size) {
            int n = Math.min(size, body.length - i);
            out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body, i, n);
            out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    private HostileRequest framing(long index, Random r) {
        HostileRequest request = authorisedPost(index, Category.BODY_FRAMING, "framing", r);
        byte[] body = bodyFor(request, Map.of(), null).getBytes(StandardCharsets.UTF_8);
        request.body(body);
        request.contentLength = false;
        request.closeAfter = true;
        switch (r.nextInt(8)) {
            case 0 -> request.header("Content-Length", "-1").what = "Content-Length -1";
            case 1 -> request.header("Content-Length", "abc").what = "Content-Length not a number";
            case 2 -> {
                request.header("Content-Length", Integer.toString(body.length));
                request.header("Content-Length", Integer.toString(body.length + 1));
                request.what = "two different Content-Length";
            }
            case 3 -> {
                request.header("Content-Length", Integer.toString(body.length));
                request.header("Transfer-Encoding", "chunked");
                request.body(chunk(body, 16));
                request.what = "Content-Length and chunked";
            }
            case 4 -> {
                request.header("Transfer-Encoding", "gzip, chunked");
                request.body(chunk(body, 16));
                request.what = "Transfer-Encoding gzip, chunked";
            }
            case 5 -> {
                request.header("Transfer-Encoding", "chunked");
                request.body("zz\r\nabc\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                request.what = "bad chunk size";
            }
            case 6 -> {
                request.header("Content-Length", "99999999999999999999");
                request.what = "Content-Length beyond a long";
            }
            default -> {
                request.header("Content-Length", Integer.toString(body.length));
                request.header("Content-Encoding", List.of("gzip", "br", "deflate", "x-unknown").get(r.nextInt(4)));
                request.what = "Content-Encoding on a plain body";
            }
        }
        return request;
    }

    private HostileRequest oversizeHeaders(long index, Random r) {
        HostileRequest request;
        switch (r.nextInt(4)) {
            case 0 -> {
                String path = "/v1/payments/" + "p".repeat(4 * 1024 + r.nextInt(64 * 1024));
                request = new HostileRequest(index, Category.HEADERS_OVERSIZE, "request line of " + path.length(),
                        "GET", path);
            }
            case 1 -> {
                String query = "/v1/payments?bookingId=" + "b".repeat(4 * 1024 + r.nextInt(16 * 1024));
                request = new HostileRequest(index, Category.HEADERS_OVERSIZE, "query of " + query.length(), "GET",
                        query);
            }
            case 2 -> {
                request = new HostileRequest(index, Category.HEADERS_OVERSIZE, "one large header", "GET",
                        "/v1/payments/" + t.completedPayment());
                request.header("X-Large", "v".repeat(8 * 1024 + r.nextInt(64 * 1024)));
            }
            default -> {
                int count = 200 + r.nextInt(2000);
                request = new HostileRequest(index, Category.HEADERS_OVERSIZE, count + " headers", "POST",
                        "/v1/payments");
                for (int i = 0; i < count; i++) {
                    request.header("X-Many-" + i, "value-" + i);
                }
                request.json(createBody(Map.of()));
            }
        }
        request.header("Authorization", "Bearer " + t.apiKey());
        request.closeAfter = true;
        return request;
    }

    private HostileRequest contentType(long index, Random r) {
        HostileRequest request = new HostileRequest(index, Category.CONTENT_TYPE, "content type", "POST",
                List.of("/v1/payments", "/v1/payments/" + t.completedPayment() + "/refunds",
                        "/v1/payments/" + t.completedPayment() + "/capture").get(r.nextInt(3)))
                .header("Authorization", "Bearer " + t.apiKey())
                .header("Idempotency-Key", "hostile-" + seed + "-" + index);
        String[] types = {null, "text/plain", "application/xml", "application/json; charset=ISO-8859-1",
                "application/json; charset=UTF-16", "application/json; charset=nonsense", "multipart/form-data",
                "application/x-www-form-urlencoded", "application/", "*/*", "application/json;;;", "json",
                "application/problem+json", "application/merge-patch+json", "application/json\u0000"};
        String type = types[r.nextInt(types.length)];
        if (type != null) {
            request.header("Content-Type", type);
        }
        if (r.nextInt(3) == 0) {
            request.header("Content-Type", "application/json");
        }
        if (r.nextInt(3) == 0) {
            request.header("Accept", List.of("text/html", "application/xml", "image/*;q=1, */*;q=0", "garbage",
                    "application/json;q=0", "").get(r.nextInt(6)));
        }
        String path = new String(request.target, StandardCharsets.UTF_8);
        request.what = "Content-Type " + escape(String.valueOf(type));
        if (path.endsWith("/capture")) {
            return request.json(r.nextBoolean() ? "{\"amount\": 1}" : "amount=1");
        }
        return request.json(path.endsWith("/refunds") ? refundBody(Long.toString(t.completedAmount() + 1))
                : r.nextBoolean() ? createBody(Map.of()) : "bookingId=" + t.paidBooking() + "&amount=1");
    }

    private HostileRequest pathAndMethod(long index, Random r) {
        String method = METHODS[r.nextInt(METHODS.length)];
        StringBuilder path = new StringBuilder(PATH_STARTS[r.nextInt(PATH_STARTS.length)]);
        for (int i = r.nextInt(4); i > 0; i--) {
            path.append(List.of("pay_" + r.nextInt(1000), t.completedPayment(), "..", "%2e%2e", "%00", "%", "%zz",
                    "%C0%80", "%ED%A0%80", "~", "*", "retry", "refunds", "deliveries", "redeliver", "x".repeat(300),
                    "%F0%9F%98%80", "\u00e9", ";a=b", "?", "#frag", "capture", "cancel", "complete", "disputes",
                    "dp_" + r.nextInt(1000)).get(r.nextInt(26)));
            if (r.nextBoolean()) {
                path.append('/');
            }
        }
        String target = switch (r.nextInt(12)) {
            case 0 -> "*";
            case 1 -> "http://evil.example" + path;
            case 2 -> path.substring(1);
            default -> path.toString();
        };
        HostileRequest request = new HostileRequest(index, Category.PATH_METHOD, method + " " + target, method,
                target);
        if (r.nextBoolean()) {
            request.header("Authorization", "Bearer " + t.apiKey());
        }
        if (method.equalsIgnoreCase("POST") || method.equals("PUT") || method.equals("PATCH")) {
            // never a valid create: the booking is paid
            request.header("Idempotency-Key", "hostile-" + seed + "-" + index).header("Content-Type",
                    "application/json").json(createBody(Map.of()));
        }
        if (method.equals("TRACE") || method.equals("X-HOSTILE") || method.equals("BREW") || method.equals("M-SEARCH")) {
            request.closeAfter = true;
        }
        return request;
    }

    /** Header values with bytes no client library sends: NUL, CR alone, non-ASCII, invalid UTF-8, obs-fold. */
    private HostileRequest headerBytes(long index, Random r) {
        HostileRequest request = new HostileRequest(index, Category.HEADER_BYTES, "header bytes", "GET",
                "/v1/payments/" + t.completedPayment());
        byte[] bad = switch (r.nextInt(6)) {
            case 0 -> new byte[] {'a', 0, 'b'};
            case 1 -> new byte[] {'a', '\r', 'b'};
            case 2 -> BAD_UTF8[r.nextInt(BAD_UTF8.length)];
            case 3 -> "\u202e\u00e9\ud83d\ude00".getBytes(StandardCharsets.UTF_8);
            case 4 -> new byte[] {'a', '\r', '\n', ' ', 'b'};
            default -> new byte[] {'a', 0x7f, 0x01, 0x1b, 'b'};
        };
        String name = List.of("Authorization", "Idempotency-Key", "If-Match", "X-Other", "Accept", "Bad Name",
                "Bad\u0000Name", "").get(r.nextInt(8));
        if (name.equals("Authorization")) {
            request.header(name, concat("Bearer ".getBytes(StandardCharsets.ISO_8859_1), bad));
        } else {
            request.header("Authorization", "Bearer " + t.apiKey());
            request.header(name, bad);
        }
        request.what = "header " + escape(name) + " = " + hex(bad);
        request.closeAfter = true;
        return request;
    }

    private HostileRequest apiKey(long index, Random r) {
        boolean write = r.nextBoolean();
        boolean cancel = write && r.nextBoolean();
        HostileRequest request = new HostileRequest(index, Category.API_KEY, "api key", write ? "POST" : "GET",
                write ? "/v1/payments/" + t.completedPayment() + (cancel ? "/cancel" : "/refunds")
                        : List.of("/v1/payments/" + t.completedPayment(), "/v1/payments/" + t.foreignPayment(),
                        "/v1/events?paymentId=" + t.completedPayment(), "/v1/bookings/" + t.paidBooking(),
                        "/v1/sandbox/charges?paymentId=" + t.completedPayment(), "/actuator/prometheus",
                        "/actuator/outbox", "/v1/disputes/" + t.v3().dispute(),
                        "/v1/payments/" + t.completedPayment() + "/disputes", "/v1/disputes?status=OPEN")
                        .get(r.nextInt(10)));
        String authorization = switch (r.nextInt(12)) {
            case 0 -> null;
            case 1 -> "Bearer ";
            case 2 -> "Bearer";
            case 3 -> "Basic " + java.util.Base64.getEncoder().encodeToString((t.apiKey() + ":").getBytes());
            case 4 -> "bearer " + t.apiKey();
            case 5 -> "Bearer  " + t.apiKey();
            case 6 -> "Bearer " + t.apiKey() + "x";
            case 7 -> "Bearer " + t.apiKey().substring(0, t.apiKey().length() - 1);
            case 8 -> "Bearer " + "k".repeat(1 + r.nextInt(4000));
            case 9 -> "Bearer sk_test_demo";
            default -> "Bearer " + t.foreignKeys().get(r.nextInt(t.foreignKeys().size()));
        };
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (r.nextInt(5) == 0) {
            request.header("Authorization", "Bearer " + t.apiKey());
        }
        if (write) {
            request.header("Idempotency-Key", "hostile-" + seed + "-" + index).header("Content-Type",
                    "application/json").json(cancel ? "{}" : refundBody(Long.toString(t.completedAmount() + 1)));
        }
        request.what = "Authorization " + escape(String.valueOf(authorization)) + " on " + request.method;
        return request;
    }

    private HostileRequest idempotencyKey(long index, Random r) {
        HostileRequest request = authorisedRequestWithoutKey(index, r);
        String key = switch (r.nextInt(14)) {
            case 0 -> null;
            case 1 -> "";
            case 2 -> "k".repeat(256);
            case 3 -> "k".repeat(255 + r.nextInt(8000));
            case 4 -> "with space";
            case 5 -> "\"\"";
            case 6 -> "\"unbalanced";
            case 7 -> "\"" + t.storedKey() + "\"";
            case 8 -> t.storedKey();
            case 9 -> "caf\u00e9";
            case 10 -> "\t";
            case 11 -> "a,b";
            case 12 -> "k\u0000";
            default -> "\"" + "q".repeat(254) + "\"";
        };
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        if (r.nextInt(6) == 0) {
            request.header("Idempotency-Key", "hostile-" + seed + "-" + index + "-second");
        }
        if (key != null && key.contains(t.storedKey()) && r.nextBoolean()) {
            // the very request stored with that key: its replay
            request.json(t.storedBody());
            request.what = "stored key, same request (a replay)";
        } else {
            request.what = "Idempotency-Key " + escape(String.valueOf(key));
        }
        return request;
    }

    /** A create, or a retry, capture, cancel or complete of the completed payment (409 once the key passes). */
    private HostileRequest authorisedRequestWithoutKey(long index, Random r) {
        String action = List.of("retry", "capture", "cancel", "complete", "", "", "", "").get(r.nextInt(8));
        String path = action.isEmpty() ? "/v1/payments" : "/v1/payments/" + t.completedPayment() + "/" + action;
        HostileRequest request = new HostileRequest(index, Category.IDEMPOTENCY_KEY, "", "POST", path)
                .header("Authorization", "Bearer " + t.apiKey())
                .header("Content-Type", "application/json");
        return request.json(switch (action) {
            case "retry", "cancel" -> "{}";
            case "capture" -> "{\"amount\": 1}";
            case "complete" -> "{\"redirectResult\": \"Ab12Cd34\"}";
            default -> createBody(Map.of("description", "\"key test\""));
        });
    }

    private HostileRequest query(long index, Random r) {
        String list = List.of("/v1/payments", "/v1/events", "/v1/payments/" + t.completedPayment() + "/refunds",
                "/v1/events/evt_unknown/deliveries", "/v1/sandbox/charges").get(r.nextInt(5));
        String parameter = List.of("limit", "starting_after", "status", "createdAfter", "createdBefore", "bookingId",
                "paymentId", "type", "unknown").get(r.nextInt(9));
        String value = List.of("0", "101", "-1", "abc", "1e2", "9999999999999999999", "", "20.5", " 5", "%00",
                "%zz", "%", "%C0%80", "%ED%A0%80", "%E2%80%AE", "pay_" + "x".repeat(2000), t.foreignPayment(),
                "evt_nope", "2026-13-45T25:61:00Z", "10000-01-01T00:00:00Z", "-999999999-01-01T00:00:00Z",
                "2026-11-30T02:14:31.123+25:00", "COMPLETED", "completed", "payment.created", "%2C", "\u00e9",
                "1;drop table payments").get(r.nextInt(28));
        StringBuilder target = new StringBuilder(list).append('?').append(parameter).append('=').append(value);
        if (r.nextInt(4) == 0) {
            target.append('&').append(parameter).append("=1");
        }
        if (r.nextInt(6) == 0) {
            target.append("&&=&").append("limit");
        }
        return new HostileRequest(index, Category.QUERY, parameter + "=" + escape(value), "GET", target.toString())
                .header("Authorization", "Bearer " + t.apiKey());
    }

    // ---- webhooks ------------------------------------------------------------------------------------------------

    private static long now() {
        return Instant.now().getEpochSecond();
    }

    private String sandboxBody(String paymentId, String type) {
        return "{\"type\": \"" + type + "\", \"data\": {\"paymentId\": \"" + paymentId
                + "\", \"chargeId\": \"ch_hostile\", \"amount\": 12000, \"currency\": \"JPY\"}}";
    }

    /**
     * The body, meant to change something, sent without a valid signature; or the applied webhook ({@code appliedId},
     * {@code appliedBody}) replayed with a stale one.
     */
    private HostileRequest sandboxForged(long index, Random r, Category category, String body, String appliedId,
                                         String appliedBody) {
        String id = "msg_hostile_" + seed + "_" + index;
        HostileRequest request = new HostileRequest(index, category, "", "POST",
                "/v1/webhooks/sandbox").header("Content-Type", "application/json");
        Instant at = Instant.now();
        String good = SignedWebhooks.signature(t.sandboxSecret(), id, at, body);
        switch (r.nextInt(11)) {
            case 0 -> request.what = "no signature headers";
            case 1 -> {
                request.header("webhook-id", id).header("webhook-timestamp", Long.toString(at.getEpochSecond()));
                request.what = "no webhook-signature";
            }
            case 2 -> {
                sandboxHeaders(request, id, Long.toString(at.getEpochSecond()),
                        SignedWebhooks.signature("whsec_" + java.util.Base64.getEncoder().encodeToString(
                                "another secret entirely".getBytes()), id, at, body));
                request.what = "signed with another secret";
            }
            case 3 -> {
                Instant stale = at.minusSeconds(301 + r.nextInt(1_000_000));
                sandboxHeaders(request, id, Long.toString(stale.getEpochSecond()),
                        SignedWebhooks.signature(t.sandboxSecret(), id, stale, body));
                request.what = "stale timestamp, valid signature";
            }
            case 4 -> {
                Instant future = at.plusSeconds(301 + r.nextInt(1_000_000));
                sandboxHeaders(request, id, Long.toString(future.getEpochSecond()),
                        SignedWebhooks.signature(t.sandboxSecret(), id, future, body));
                request.what = "future timestamp, valid signature";
            }
            case 5 -> {
                sandboxHeaders(request, id, List.of("abc", "-1", "99999999999999999999", "1e9", "", " 1")
                        .get(r.nextInt(6)), good);
                request.what = "timestamp not a number";
            }
            case 6 -> {
                sandboxHeaders(request, id, Long.toString(at.getEpochSecond()),
                        List.of("v1,", "v1,!!!notbase64", "v2," + good.substring(3), good.substring(3), "",
                                ("v1,AAAA ").repeat(1 + r.nextInt(2000)), good.replace("v1,", "v1, ")).get(r.nextInt(7)));
                request.what = "malformed signature list";
            }
            case 7 -> {
                sandboxHeaders(request, id + "x", Long.toString(at.getEpochSecond()), good);
                request.what = "signature of another webhook-id";
            }
            case 8 -> {
                sandboxHeaders(request, id, Long.toString(at.getEpochSecond()), good);
                request.json(body + " ");
                request.what = "body changed after signing";
                return request;
            }
            case 9 -> {
                sandboxHeaders(request, "", Long.toString(at.getEpochSecond()),
                        SignedWebhooks.signature(t.sandboxSecret(), "x", at, body));
                request.what = "empty webhook-id";
            }
            default -> {
                sandboxHeaders(request, appliedId, Long.toString(at.getEpochSecond() - 400),
                        SignedWebhooks.signature(t.sandboxSecret(), appliedId, at.minusSeconds(400), appliedBody));
                request.json(appliedBody);
                request.what = "replay of the applied webhook, stale";
                return request;
            }
        }
        return request.json(body);
    }

    private static void sandboxHeaders(HostileRequest request, String id, String timestamp, String signature) {
        request.header("webhook-id", id).header("webhook-timestamp", timestamp).header("webhook-signature", signature);
    }

    /** The applied webhook re-signed with a fresh timestamp: a duplicate. */
    private HostileRequest sandboxReplay(long index, Random r, Category category, String appliedId,
                                         String appliedBody) {
        Instant at = Instant.now().minusSeconds(r.nextInt(250));
        HostileRequest request = new HostileRequest(index, category,
                "applied webhook re-signed (same id, same body)", "POST", "/v1/webhooks/sandbox")
                .header("Content-Type", "application/json");
        sandboxHeaders(request, appliedId, Long.toString(at.getEpochSecond()),
                SignedWebhooks.signature(t.sandboxSecret(), appliedId, at, appliedBody));
        return request.json(appliedBody);
    }

    private HostileRequest sandboxMalformed(long index, Random r) {
        String body = switch (r.nextInt(12)) {
            case 0 -> "{";
            case 1 -> "[]";
            case 2 -> "{\"type\": \"payment.exploded\", \"data\": {}}";
            case 3 -> "{\"type\": \"payment.succeeded\"}";
            case 4 -> sandboxBody(t.completedPayment(), "payment.succeeded").replace(", \"chargeId\": \"ch_hostile\"", "");
            case 5 -> sandboxBody(t.completedPayment(), "payment.succeeded").replace("12000", "\"12000\"");
            case 6 -> sandboxBody("pay_" + "unknown" + index, "payment.succeeded");
            // about no known payment: a well-formed amount that differed from a known payment's would be a
            // legitimate (recorded) "rejected" outcome, not a refusal
            case 7 -> sandboxBody("pay_unknown" + index, "payment.succeeded").replace("12000", NUMBERS[r.nextInt(NUMBERS.length)]);
            case 8 -> sandboxBody("pay_\\u0000", "payment.succeeded");
            case 9 -> "{\"type\": \"payment.failed\", \"data\": {\"paymentId\": \"pay_unknown" + index
                    + "\", \"chargeId\": \"ch_x\", \"amount\": 1, \"currency\": \"JPY\", \"failureReason\": \"a\\u0000b\"}}";
            case 10 -> "{\"type\": \"payment.succeeded\", \"type\": \"payment.failed\", \"data\": {}}";
            default -> "[".repeat(1 + r.nextInt(20_000));
        };
        return sandboxSigned(index, Category.WEBHOOK_SANDBOX_MALFORMED, body);
    }

    /** The body signed correctly under a fresh webhook id. */
    private HostileRequest sandboxSigned(long index, Category category, String body) {
        String id = "msg_hostile_" + seed + "_" + index;
        Instant at = Instant.now();
        HostileRequest request = new HostileRequest(index, category, "signed: " + abbreviate(body),
                "POST", "/v1/webhooks/sandbox").header("Content-Type", "application/json");
        sandboxHeaders(request, id, Long.toString(at.getEpochSecond()),
                SignedWebhooks.signature(t.sandboxSecret(), id, at, body));
        request.json(body);
        request.closeAfter = request.body.length > 64 * 1024;
        return request;
    }

    private HostileRequest stripeForged(long index, Random r) {
        String body = t.stripeEventBody().replace("payment_intent.succeeded", "payment_intent.payment_failed");
        String merchant = t.stripeMerchant();
        String signature;
        String what;
        switch (r.nextInt(8)) {
            case 0 -> {
                signature = null;
                what = "no Stripe-Signature";
            }
            case 1 -> {
                signature = FakeStripe.sign(body, "whsec_someoneElsesSecret", now());
                what = "another secret";
            }
            case 2 -> {
                signature = FakeStripe.sign(body, t.stripeSecret(), now() - 301 - r.nextInt(100_000));
                what = "stale timestamp";
            }
            case 3 -> {
                signature = List.of("t=abc,v1=00", "v1=", "t=", ",,,", "t=1,v1=" + "0".repeat(64),
                        "garbage", "t=" + now() + ",v0=abc").get(r.nextInt(7));
                what = "malformed header";
            }
            case 4 -> {
                signature = FakeStripe.sign(t.stripeEventBody(), t.stripeSecret(), now());
                what = "signature of another body";
            }
            case 5 -> {
                merchant = List.of("nobody", "demo", t.adyenMerchant(), "%00", "x".repeat(500)).get(r.nextInt(5));
                signature = FakeStripe.sign(body, t.stripeSecret(), now());
                what = "merchant without Stripe: " + abbreviate(merchant);
            }
            case 6 -> {
                signature = FakeStripe.sign(t.stripeEventBody(), t.stripeSecret(), now() - 400);
                body = t.stripeEventBody();
                what = "replay of the applied event, stale";
            }
            default -> {
                signature = FakeStripe.sign(body, t.stripeSecret(), now()) + ",v1=" + "f".repeat(64);
                signature = signature.replaceFirst("v1=[0-9a-f]+", "v1=" + "e".repeat(64));
                what = "valid timestamp, wrong v1 plus another wrong v1";
            }
        }
        HostileRequest request = new HostileRequest(index, Category.WEBHOOK_STRIPE_FORGED, what, "POST",
                "/v1/webhooks/stripe/" + merchant).header("Content-Type", "application/json");
        if (signature != null) {
            request.header("Stripe-Signature", signature);
        }
        return request.json(body);
    }

    private HostileRequest stripeReplay(long index) {
        return new HostileRequest(index, Category.WEBHOOK_STRIPE_REPLAY, "applied event re-signed", "POST",
                "/v1/webhooks/stripe/" + t.stripeMerchant()).header("Content-Type", "application/json")
                .header("Stripe-Signature", FakeStripe.sign(t.stripeEventBody(), t.stripeSecret(), now()))
                .json(t.stripeEventBody());
    }

    private HostileRequest stripeMalformed(long index, Random r) {
        String event = t.stripeEventBody();
        String body = switch (r.nextInt(9)) {
            case 0 -> "{";
            case 1 -> "[]";
            case 2 -> "{\"id\": 5}";
            case 3 -> "{\"id\": \"evt_hostile" + index + "\", \"object\": \"event\", \"type\": \"payment_intent.succeeded\"}";
            case 4 -> "{\"id\": \"evt_hostile" + index + "\", \"object\": \"event\", \"type\": \"payment_intent.succeeded\","
                    + " \"data\": {\"object\": \"not an object\"}}";
            case 5 -> "{\"id\": \"evt_hostile" + index + "\", \"object\": \"event\", \"type\": \"payment_intent.succeeded\","
                    + " \"data\": {\"object\": {\"id\": \"pi_unknown" + index + "\", \"object\": \"payment_intent\","
                    + " \"amount\": " + NUMBERS[r.nextInt(NUMBERS.length)] + ", \"currency\": \"usd\", \"status\": \"succeeded\"}}}";
            case 6 -> event.replaceFirst("\"id\":\"evt_[A-Za-z0-9]+\"", "\"id\":\"evt_hostile" + index + "\"")
                    .replaceFirst("\"id\":\"pi_", "\"id\":\"pi_\\\\u0000");
            case 7 -> "[".repeat(1 + r.nextInt(20_000));
            default -> event.replaceFirst("\"id\":\"evt_[A-Za-z0-9]+\"", "\"id\":\"evt_hostile" + index + "\"")
                    .replace("\"amount\":5000", "\"amount\":\"5000\"");
        };
        return new HostileRequest(index, Category.WEBHOOK_STRIPE_MALFORMED, "signed: " + abbreviate(body), "POST",
                "/v1/webhooks/stripe/" + t.stripeMerchant()).header("Content-Type", "application/json")
                .header("Stripe-Signature", FakeStripe.sign(body, t.stripeSecret(), now()))
                .json(body);
    }

    private Map<String, Object> adyenItem(String psp, String reference, boolean success) {
        Map<String, Object> item = new HashMap<>();
        item.put("pspReference", psp);
        item.put("merchantReference", reference);
        item.put("success", success);
        item.put("value", 1000L);
        item.put("currency", "EUR");
        item.put("reason", success ? "" : "Refused");
        return item;
    }

    private HostileRequest adyenForged(long index, Random r) {
        String merchant = t.adyenMerchant();
        String body;
        String what;
        switch (r.nextInt(5)) {
            case 0 -> {
                Map<String, Object> item = adyenItem("HOSTILE" + index, "pay_hostile" + index, true);
                item.put("signWith", "00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF");
                body = FakeAdyen.notification(t.adyenAccount(), t.adyenHmacKey(), List.of(item));
                what = "item signed with another key";
            }
            case 1 -> {
                body = t.adyenBatchBody().replace("\"success\":\"true\"", "\"success\":\"false\"");
                what = "applied item with success flipped (signature no longer matches)";
            }
            case 2 -> {
                body = t.adyenBatchBody().replaceAll("\"hmacSignature\":\"[^\"]*\"", "\"hmacSignature\":\"AAAA\"");
                what = "hmacSignature replaced";
            }
            case 3 -> {
                body = t.adyenBatchBody().replace("\"additionalData\":{", "\"additionalData\":{\"x\":1,")
                        .replaceAll("\"hmacSignature\":\"[^\"]*\",?", "");
                what = "no hmacSignature";
            }
            default -> {
                merchant = List.of("nobody", "demo", t.stripeMerchant(), "%2e%2e").get(r.nextInt(4));
                body = t.adyenBatchBody();
                what = "merchant without Adyen: " + merchant;
            }
        }
        return new HostileRequest(index, Category.WEBHOOK_ADYEN_FORGED, what, "POST", "/v1/webhooks/adyen/" + merchant)
                .header("Content-Type", "application/json").json(body);
    }

    private HostileRequest adyenReplay(long index) {
        return new HostileRequest(index, Category.WEBHOOK_ADYEN_REPLAY, "applied batch again", "POST",
                "/v1/webhooks/adyen/" + t.adyenMerchant()).header("Content-Type", "application/json")
                .json(t.adyenBatchBody());
    }

    private HostileRequest adyenMalformed(long index, Random r) {
        String body = switch (r.nextInt(8)) {
            case 0 -> "{";
            case 1 -> "[]";
            case 2 -> "{\"live\": \"false\", \"notificationItems\": {}}";
            case 3 -> "{\"live\": \"false\", \"notificationItems\": [{\"NotificationRequestItem\": 5}]}";
            case 4 -> "{\"live\": \"false\", \"notificationItems\": [" + "{},".repeat(r.nextInt(2000)) + "{}]}";
            case 5 -> FakeAdyen.notification(t.adyenAccount(), t.adyenHmacKey(),
                    List.of(adyenItem("HOSTILE" + index, "pay_unknown" + index, r.nextBoolean())));
            case 6 -> FakeAdyen.notification(t.adyenAccount(), t.adyenHmacKey(),
                    List.of(adyenItem("HOSTILE" + index, "pay_unknown" + index, true)))
                    .replace("\"eventCode\":\"AUTHORISATION\"", "\"eventCode\":\"AUTHORISATION\\u0000\"");
            default -> "{\"live\": \"false\", \"notificationItems\": [{\"NotificationRequestItem\": {\"amount\": "
                    + "{\"value\": " + NUMBERS[r.nextInt(NUMBERS.length)] + ", \"currency\": \"EUR\"}}}]}";
        };
        return new HostileRequest(index, Category.WEBHOOK_ADYEN_MALFORMED, abbreviate(body), "POST",
                "/v1/webhooks/adyen/" + t.adyenMerchant()).header("Content-Type", "application/json").json(body);
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    private static String quote(String text) {
        return "\"" + text + "\"";
    }

    private static byte[] splice(String template, String marker, byte[] bytes) {
        int at = template.indexOf(marker);
        return concat(concat(template.substring(0, at).getBytes(StandardCharsets.UTF_8), bytes),
                template.substring(at + marker.length()).getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = new byte[a.length + b.length];
        System.arraycopy(a, 0, joined, 0, a.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    static String hex(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (byte b : bytes) {
            text.append(String.format("%02X", b & 0xff));
        }
        return text.toString();
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().limit(300).forEach(c -> {
            if (c < 0x20 || c >= 0x7f) {
                out.append(String.format("U+%04X", c));
            } else {
                out.append((char) c);
            }
        });
        return out.toString();
    }

    private static String abbreviate(String text) {
        return escape(text.length() > 60 ? text.substring(0, 60) + "…" : text);
    }
}
