package com.payorch.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP server's limits, over raw sockets: an oversize request line (414) or header block (431), a request the
 * HTTP/1.1 decoder refuses (400), and clients too slow with their headers or body (408) are all answered with a
 * problem (`application/problem+json`, a documented code) and the connection closed, never with Reactor Netty's
 * empty answer or a silent close. The limits are made small here through payments.http.* (the clocks not too small: a loaded 2-core machine must
 * still read a request that comes in two reads within the header clock).
 */
@TestPropertySource(properties = {
        "payments.http.max-request-line=1KB",
        "payments.http.max-header-size=2KB",
        "payments.http.request-header-timeout=PT2S",
        "payments.http.request-body-timeout=PT1S"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class HttpLimitsIT extends ApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A status line, the headers and the body of one answer, and whether the server closed afterwards. */
    private record Answer(int status, String head, byte[] body, boolean closed) {
        JsonNode problem() {
            assertThat(head.toLowerCase()).contains("content-type: application/problem+json");
            return JSON.readTree(body);
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("localhost", port);
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Reads one answer (Content-Length framed) and then whether the server closed the connection. */
    private static Answer read(Socket socket, boolean expectClose) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            assertThat(b).as("the server closed without an answer after: " + head).isNotNegative();
            head.write(b);
        }
        String headText = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : headText.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        boolean closed = false;
        if (expectClose) {
            try {
                closed = in.read() < 0;
            } catch (SocketTimeoutException | java.net.SocketException e) {
                closed = e instanceof java.net.SocketException;
            }
        }
        return new Answer(Integer.parseInt(headText.substring(9, 12)), headText, body, closed);
    }

    private static String get(String target, String... headers) {
        return "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + DEMO_KEY + "\r\n"
                + String.join("", java.util.Arrays.stream(headers).map(h -> h + "\r\n").toList()) + "\r\n";
    }

    @Test
    void anOversizeRequestLineIs414UriTooLong() throws Exception {
        try (Socket socket = connect()) {
            send(socket, get("/v1/payments?bookingId=" + "b".repeat(1100)));
            Answer answer = read(socket, true);

            assertThat(answer.status()).isEqualTo(414);
            assertThat(answer.problem().get("code").asString()).isEqualTo("uri_too_long");
            assertThat(answer.problem().get("status").asInt()).isEqualTo(414);
            assertThat(answer.closed()).isTrue();
        }
    }

    @Test
    void anOversizeHeaderBlockIs431WhileOneWithinTheConfiguredLimitIsServed() throws Exception {
        try (Socket socket = connect()) {
            send(socket, get("/v1/payments?limit=1", "X-Padding: " + "p".repeat(1500)));
            assertThat(read(socket, false).status()).isEqualTo(200);

            send(socket, get("/v1/payments?limit=1", "X-Padding: " + "p".repeat(2100)));
            Answer answer = read(socket, true);

            assertThat(answer.status()).isEqualTo(431);
            assertThat(answer.problem().get("code").asString()).isEqualTo("request_header_too_large");
            assertThat(answer.closed()).isTrue();
        }
    }

    @Test
    void manySmallHeadersOverTheLimitAre431Too() throws Exception {
        StringBuilder headers = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            headers.append("X-Many-").append(i).append(": value-").append(i).append("\r\n");
        }
        try (Socket socket = connect()) {
            send(socket, "GET /v1/payments HTTP/1.1\r\nHost: localhost\r\n" + headers + "\r\n");
            Answer answer = read(socket, true);

            assertThat(answer.status()).isEqualTo(431);
            assertThat(answer.problem().get("code").asString()).isEqualTo("request_header_too_large");
        }
    }

    @Test
    void aRequestTheDecoderRefusesIs400InvalidRequest() throws Exception {
        try (Socket socket = connect()) {
            send(socket, get("/v1/payments", "Bad Name: x"));
            Answer answer = read(socket, true);

            assertThat(answer.status()).isEqualTo(400);
            assertThat(answer.problem().get("code").asString()).isEqualTo("invalid_request");
            assertThat(answer.closed()).isTrue();
        }
    }

    @Test
    void aRequestTheDecoderRefusesOnAKeptAliveConnectionIsAnsweredToo() throws Exception {
        try (Socket socket = connect()) {
            send(socket, get("/v1/payments?limit=1"));
            assertThat(read(socket, false).status()).isEqualTo(200);

            send(socket, get("/v1/payments", "If-Match: a\rb"));
            Answer answer = read(socket, true);

            assertThat(answer.status()).isEqualTo(400);
            assertThat(answer.problem().get("code").asString()).isEqualTo("invalid_request");
        }
    }

    @Test
    void headersNotCompleteInTimeAre408AndTheConnectionIsClosed() throws Exception {
        try (Socket socket = connect()) {
            send(socket, "GET /v1/payments HTTP/1.1\r\nHost: localhost\r\nAuthori");
            // the read blocks until the server's header clock (2 s) runs out
            Answer answer = read(socket, true);

            assertThat(answer.status()).isEqualTo(408);
            assertThat(answer.problem().get("code").asString()).isEqualTo("request_timeout");
            assertThat(answer.closed()).isTrue();
        }
    }

    @Test
    void aClientTricklingItsHeadersIsCutOffByTheHeaderClockNotKeptAliveByEachByte() throws Exception {
        try (Socket socket = connect()) {
            socket.setSoTimeout(50);
            String request = get("/v1/payments", "X-Slow: " + "s".repeat(400));
            AtomicInteger sent = new AtomicInteger();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            // one byte every 50 ms (the idle time-out never fires), until the server answers
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
                if (sent.get() < request.length()) {
                    socket.getOutputStream().write(request.charAt(sent.getAndIncrement()));
                }
                try {
                    int b = socket.getInputStream().read();
                    if (b >= 0) {
                        received.write(b);
                    }
                } catch (SocketTimeoutException e) {
                    return false;
                }
                return true;
            });
            socket.setSoTimeout(10_000);
            byte[] rest = socket.getInputStream().readAllBytes();
            String answer = received + new String(rest, StandardCharsets.ISO_8859_1);

            assertThat(sent.get()).isLessThan(request.length());
            assertThat(answer).startsWith("HTTP/1.1 408 ").contains("application/problem+json")
                    .contains("\"code\":\"request_timeout\"");
        }
    }

    @Test
    void aBodyNotCompleteInTimeIs408AndTheConnectionIsClosed() throws Exception {
        try (Socket socket = connect()) {
            send(socket, "POST /v1/payments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + DEMO_KEY
                    + "\r\nIdempotency-Key: " + unique("slow") + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"bookingId\": ");
            Answer answer = read(socket, true);

            assertThat(answer.status()).isEqualTo(408);
            assertThat(answer.problem().get("code").asString()).isEqualTo("request_timeout");
            assertThat(answer.closed()).isTrue();
        }
        assertThat(count("select count(*) from idempotency_keys where merchant_id = 'demo' and idempotency_key like 'slow_%'"))
                .isZero();
    }

    @Test
    void anIdleKeptAliveConnectionIsNotTimedByTheHeaderClock() throws Exception {
        try (Socket socket = connect()) {
            send(socket, get("/v1/payments?limit=1"));
            assertThat(read(socket, false).status()).isEqualTo(200);
            // idle for longer than the header clock, then a next request on the same connection
            socket.setSoTimeout(2500);
            assertThat(readOrTimeout(socket)).as("nothing sent on an idle connection").isEqualTo(-2);
            send(socket, get("/v1/payments?limit=1"));
            assertThat(read(socket, false).status()).isEqualTo(200);
        }
    }

    /** The next byte, -1 at the end of the stream, -2 when nothing came within the socket's time-out. */
    private static int readOrTimeout(Socket socket) throws IOException {
        try {
            return socket.getInputStream().read();
        } catch (SocketTimeoutException e) {
            return -2;
        }
    }

    /** A COMPLETED payment of merchant demo (its refund, with no amount, would refund all of it). */
    private String completedPayment() {
        String id = createPayment(unique("bk_refundable"), "pm_card_ok");
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", id, 12000, "JPY")).expectStatus().isOk();
        assertThat(statusOf(id)).isEqualTo("COMPLETED");
        return id;
    }

    private String refundHead(String paymentId, String key, String framing) {
        return "POST /v1/payments/" + paymentId + "/refunds HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                + DEMO_KEY + "\r\nIdempotency-Key: " + key + "\r\nContent-Type: application/json\r\n" + framing
                + "\r\n\r\n";
    }

    /**
     * Found by HostileInputIT: a refund whose chunked body was broken ("zz" as a chunk size) answered 400, yet the
     * service had read an empty body (Reactor Netty ends the body without an error) and refunded the whole payment.
     */
    @Test
    void aRefundWithABrokenChunkedBodyIs400AndRefundsNothing() throws Exception {
        String payment = completedPayment();
        try (Socket socket = connect()) {
            send(socket, refundHead(payment, unique("broken"), "Transfer-Encoding: chunked") + "zz\r\nabc\r\n0\r\n\r\n");
            Answer answer = read(socket, true);

            assertThat(answer.status()).isEqualTo(400);
            assertThat(answer.problem().get("code").asString()).isEqualTo("invalid_request");
        }
        Awaitility.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(count("select count(*) from refunds where payment_id = $1", payment)).isZero());
    }

    /** The same for a body that does not come in time: 408, and nothing is refunded. */
    @Test
    void aRefundWhoseBodyDoesNotComeInTimeIs408AndRefundsNothing() throws Exception {
        String payment = completedPayment();
        try (Socket socket = connect()) {
            send(socket, refundHead(payment, unique("late"), "Content-Length: 40"));
            Answer answer = read(socket, true);

            assertThat(answer.status()).isEqualTo(408);
            assertThat(answer.problem().get("code").asString()).isEqualTo("request_timeout");
        }
        Awaitility.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(count("select count(*) from refunds where payment_id = $1", payment)).isZero());
    }
}
