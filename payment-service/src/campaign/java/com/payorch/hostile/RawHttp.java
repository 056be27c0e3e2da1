package com.payorch.hostile;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A minimal HTTP/1.1 client over one socket that sends requests byte for byte as given (no header validation, no
 * framing of its own): the only way to send what a well-behaved client library refuses to. Keeps the connection
 * alive between requests and opens a new one when the server closed it.
 */
final class RawHttp implements AutoCloseable {

    /** An answer; {@code status} -1: the connection was closed (or reset) before a status line came. */
    record Response(int status, Map<String, List<String>> headers, byte[] body, String failure) {

        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        static Response closed(String failure) {
            return new Response(-1, Map.of(), new byte[0], failure);
        }
    }

    private static final int LARGE_BODY = 32 * 1024;

    private final String host;
    private final int port;
    private final int timeoutMillis;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "raw-http-writer");
        thread.setDaemon(true);
        return thread;
    });
    private Socket socket;
    private InputStream in;
    /** The request sent before on this connection (for failure messages), null on a new connection. */
    private String previous;

    RawHttp(String host, int port, Duration timeout) {
        this.host = host;
        this.port = port;
        this.timeoutMillis = (int) timeout.toMillis();
    }

    /**
     * Sends one request (its complete bytes) and reads one answer. A large request is written by another thread while
     * this one reads, so an early answer (413 before the whole body was sent) is read before the server's close.
     */
    Response exchange(byte[] request, boolean headRequest, boolean closeAfter) {
        try {
            if (socket == null || socket.isClosed()) {
                open();
                previous = null;
            }
            failedPrevious = previous;
            previous = summary(request);
            OutputStream out = socket.getOutputStream();
            Future<?> writing = null;
            if (request.length > LARGE_BODY) {
                writing = writer.submit(() -> {
                    try {
                        out.write(request);
                        out.flush();
                    } catch (IOException e) {
                        // the server answered and closed before it read everything: the answer is what counts
                    }
                    return null;
                });
            } else {
                out.write(request);
                out.flush();
            }
            Response response = read(headRequest);
            if (writing != null) {
                try {
                    writing.get();
                } catch (Exception e) {
                    // nothing to do: see above
                }
            }
            String connection = response.header("connection");
            if (closeAfter || response.status < 0 || "close".equalsIgnoreCase(connection)) {
                closeSocket();
            }
            return response;
        } catch (SocketTimeoutException e) {
            closeSocket();
            return Response.closed("no answer within " + timeoutMillis + " ms; before on this connection: "
                    + previousOnFailure());
        } catch (IOException e) {
            closeSocket();
            return Response.closed(e.getClass().getSimpleName() + ": " + e.getMessage()
                    + "; before on this connection: " + previousOnFailure());
        }
    }

    private String previousOnFailure() {
        return failedPrevious;
    }

    private String failedPrevious;

    private static String summary(byte[] request) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < Math.min(request.length, 300); i++) {
            int b = request[i] & 0xff;
            text.append(b == '\r' ? "\\r" : b == '\n' ? "\\n" : b < 0x20 || b >= 0x7f ? "?" : String.valueOf((char) b));
        }
        return text.toString();
    }

    private void open() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(timeoutMillis);
        socket.connect(new InetSocketAddress(host, port), timeoutMillis);
        in = new java.io.BufferedInputStream(socket.getInputStream(), 16 * 1024);
    }

    private Response read(boolean headRequest) throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            return Response.closed("closed without an answer");
        }
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP status line: " + statusLine);
        }
        int status = Integer.parseInt(parts[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String header = line(); header != null && !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        k -> new ArrayList<>()).add(header.substring(colon + 1).trim());
            }
        }
        byte[] body;
        List<String> length = headers.get("content-length");
        List<String> encoding = headers.get("transfer-encoding");
        if (headRequest || status == 204 || status == 304 || status / 100 == 1) {
            body = new byte[0];
        } else if (encoding != null && encoding.get(0).toLowerCase(Locale.ROOT).contains("chunked")) {
            body = chunked();
        } else if (length != null) {
            body = in.readNBytes(Integer.parseInt(length.get(0)));
        } else {
            body = in.readAllBytes();
            closeSocket();
        }
        return new Response(status, headers, body, null);
    }

    private byte[] chunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = line();
            if (size == null) {
                throw new EOFException("closed inside a chunked body");
            }
            int semicolon = size.indexOf(';');
            int n = Integer.parseInt((semicolon >= 0 ? size.substring(0, semicolon) : size).trim(), 16);
            if (n == 0) {
                for (String trailer = line(); trailer != null && !trailer.isEmpty(); trailer = line()) {
                    // trailers ignored
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(n));
            line();
        }
    }

    /** One CRLF-terminated line (ISO-8859-1), or null at the end of the stream before any byte. */
    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        boolean any = false;
        while ((b = in.read()) >= 0) {
            any = true;
            if (b == '\n') {
                int end = line.length();
                if (end > 0 && line.charAt(end - 1) == '\r') {
                    line.setLength(end - 1);
                }
                return line.toString();
            }
            line.append((char) b);
        }
        return any ? line.toString() : null;
    }

    private void closeSocket() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
            socket = null;
        }
    }

    @Override
    public void close() {
        closeSocket();
        writer.shutdownNow();
    }
}
