package com.payorch.hostile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One request as bytes on the wire, built without any of a client library's checks: header values and paths may
 * hold any byte, framing headers may lie or repeat.
 */
final class HostileRequest {

    /** What the generator meant to send; the test's counts and expectations are by category. */
    enum Category {
        JSON_MALFORMED, JSON_NESTED, JSON_NUMBERS, JSON_UNICODE, JSON_CONTROL, JSON_DUPLICATES,
        BODY_OVERSIZE, BODY_FRAMING, HEADERS_OVERSIZE, CONTENT_TYPE, PATH_METHOD, HEADER_BYTES, API_KEY,
        IDEMPOTENCY_KEY, QUERY, WEBHOOK_SANDBOX_FORGED, WEBHOOK_SANDBOX_REPLAY, WEBHOOK_SANDBOX_MALFORMED,
        WEBHOOK_STRIPE_FORGED, WEBHOOK_STRIPE_REPLAY, WEBHOOK_STRIPE_MALFORMED, WEBHOOK_ADYEN_FORGED,
        WEBHOOK_ADYEN_REPLAY, WEBHOOK_ADYEN_MALFORMED,
        // contract v3: holds, customer action, disputes
        CREATE_V3, CAPTURE, CANCEL, COMPLETE, IF_MATCH, DISPUTE_READ, WEBHOOK_DISPUTE_FORGED, WEBHOOK_DISPUTE_REPLAY,
        WEBHOOK_DISPUTE_MALFORMED, SANDBOX_PAGE
    }

    final long index;
    final Category category;
    String what;
    final String method;
    final byte[] target;
    final List<byte[][]> headers = new ArrayList<>();
    byte[] body = new byte[0];
    /** false: the generator wrote its own framing headers (or none on purpose). */
    boolean contentLength = true;
    /** Lying or repeated framing: this connection is not reused afterwards. */
    boolean closeAfter;

    HostileRequest(long index, Category category, String what, String method, String target) {
        this(index, category, what, method, target.getBytes(StandardCharsets.UTF_8));
    }

    HostileRequest(long index, Category category, String what, String method, byte[] target) {
        this.index = index;
        this.category = category;
        this.what = what;
        this.method = method;
        this.target = target;
    }

    HostileRequest header(String name, String value) {
        return header(name, value.getBytes(StandardCharsets.UTF_8));
    }

    HostileRequest header(String name, byte[] value) {
        headers.add(new byte[][] {name.getBytes(StandardCharsets.ISO_8859_1), value});
        return this;
    }

    HostileRequest json(String json) {
        return body(json.getBytes(StandardCharsets.UTF_8));
    }

    HostileRequest body(byte[] bytes) {
        body = bytes;
        return this;
    }

    boolean isConsole() {
        return path().startsWith("/console");
    }

    /** The target as the server reads it: absolute-form loses its scheme and authority, a missing slash is added. */
    private String path() {
        String path = new String(target, StandardCharsets.ISO_8859_1).replaceFirst("^[A-Za-z]+://[^/]*", "");
        return path.startsWith("/") ? path : "/" + path;
    }

    /** The sandbox's 3-D Secure page: HTML for the customer's browser, not the API (docs/api.md). */
    boolean isSandboxPage() {
        return path().startsWith("/sandbox/");
    }

    boolean isHead() {
        return method.equals("HEAD");
    }

    byte[] toBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + body.length);
        out.writeBytes(method.getBytes(StandardCharsets.ISO_8859_1));
        out.write(' ');
        out.writeBytes(target);
        out.writeBytes(" HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.ISO_8859_1));
        for (byte[][] header : headers) {
            out.writeBytes(header[0]);
            out.writeBytes(": ".getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(header[1]);
            out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        if (contentLength && (body.length > 0 || method.equals("POST") || method.equals("PUT"))) {
            out.writeBytes(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
        if (closeAfter) {
            out.writeBytes("Connection: close\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** For failure messages: the request line and headers, non-printable bytes escaped, the body's start. */
    String describe() {
        byte[] bytes = toBytes();
        StringBuilder text = new StringBuilder("#" + index + " " + category + " (" + what + "): ");
        int shown = Math.min(bytes.length, 600);
        for (int i = 0; i < shown; i++) {
            int b = bytes[i] & 0xff;
            if (b == '\r') {
                text.append("\\r");
            } else if (b == '\n') {
                text.append("\\n");
            } else if (b < 0x20 || b >= 0x7f) {
                text.append(String.format("\\x%02x", b));
            } else {
                text.append((char) b);
            }
        }
        if (bytes.length > shown) {
            text.append("… (").append(bytes.length).append(" bytes)");
        }
        return text.toString();
    }
}
