package com.payorch.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An SMTP server that misbehaves, on a plain {@link ServerSocket} (GreenMail always answers at once):
 * {@link #silent()} accepts connections and never says a word; {@link #slow(Duration)} speaks enough SMTP for
 * JavaMail but answers the end of each message's data only after a delay, as an overloaded server does;
 * {@link #held()} does the same but answers only when the test calls {@link #answerHeldMessages()}, so a test can
 * act while a message is received and not yet accepted, without sleeping.
 */
public final class FakeSmtpServer implements AutoCloseable {

    private final ServerSocket server;
    private final Duration dataReplyDelay;   // null: silent or held
    private final CompletableFuture<Void> heldReplies;   // null: silent or slow
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    private final List<String> accepted = new CopyOnWriteArrayList<>();
    private final AtomicInteger dataReceived = new AtomicInteger();
    private final AtomicInteger sessionsEnded = new AtomicInteger();
    private final ScheduledExecutorService replies = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "fake-smtp-replies");
        thread.setDaemon(true);
        return thread;
    });

    private FakeSmtpServer(Duration dataReplyDelay, CompletableFuture<Void> heldReplies) {
        this.dataReplyDelay = dataReplyDelay;
        this.heldReplies = heldReplies;
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::acceptConnections, "fake-smtp-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Accepts every connection and then neither reads nor writes: a client waits for the greeting forever. */
    public static FakeSmtpServer silent() {
        return new FakeSmtpServer(null, null);
    }

    /** Answers at once, except the reply to a message's data ("250 accepted"), which comes `delay` later. */
    public static FakeSmtpServer slow(Duration delay) {
        return new FakeSmtpServer(delay, null);
    }

    /**
     * Answers at once, except the reply to a message's data ("250 accepted"), which waits until
     * {@link #answerHeldMessages()}; messages received after that call are accepted at once. Keep the hold shorter
     * than the client's read timeout (JavaMail's mail.smtp.timeout, 10 s in the service).
     */
    public static FakeSmtpServer held() {
        return new FakeSmtpServer(null, new CompletableFuture<>());
    }

    /** {@link #held()}: accepts the messages received so far, and from now on every message at once. */
    public void answerHeldMessages() {
        if (heldReplies == null) {
            throw new IllegalStateException("only a held() server holds its answers");
        }
        heldReplies.complete(null);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    public int connectionCount() {
        return connections.size();
    }

    /** Messages whose data was received completely (whether or not accepted yet). */
    public int messagesReceived() {
        return dataReceived.get();
    }

    /** SMTP sessions the client ended with QUIT (after an accepted message: its send returned). */
    public int sessionsEnded() {
        return sessionsEnded.get();
    }

    /** The raw data of each message accepted ("250" sent), in order. */
    public List<String> acceptedMessages() {
        return List.copyOf(accepted);
    }

    /** The accepted messages whose data contains `text`. */
    public long acceptedContaining(String text) {
        return accepted.stream().filter(message -> message.contains(text)).count();
    }

    private void acceptConnections() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.add(socket);
                if (dataReplyDelay != null || heldReplies != null) {
                    Thread handler = new Thread(() -> converse(socket), "fake-smtp-session");
                    handler.setDaemon(true);
                    handler.start();
                }
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void converse(Socket socket) {
        try (socket;
             BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))) {
            OutputStream out = socket.getOutputStream();
            write(out, "220 fake.smtp ESMTP");
            String line;
            while ((line = in.readLine()) != null) {
                String command = line.toUpperCase();
                if (command.startsWith("EHLO") || command.startsWith("HELO")) {
                    write(out, "250 fake.smtp");
                } else if (command.startsWith("DATA")) {
                    write(out, "354 end with <CRLF>.<CRLF>");
                    StringBuilder data = new StringBuilder();
                    while ((line = in.readLine()) != null && !line.equals(".")) {
                        data.append(line).append('\n');
                    }
                    dataReceived.incrementAndGet();
                    String message = data.toString();
                    Runnable accept = () -> {
                        accepted.add(message);
                        write(out, "250 accepted");
                    };
                    if (heldReplies != null) {
                        heldReplies.thenRunAsync(accept, replies);
                    } else {
                        replies.schedule(accept, dataReplyDelay.toMillis(), TimeUnit.MILLISECONDS);
                    }
                } else if (command.startsWith("QUIT")) {
                    sessionsEnded.incrementAndGet();
                    write(out, "221 bye");
                    return;
                } else {
                    write(out, "250 ok");   // MAIL FROM, RCPT TO, RSET, NOOP
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // the client went away, or the server is closing
        }
    }

    private static void write(OutputStream out, String reply) {
        try {
            synchronized (out) {
                out.write((reply + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        replies.shutdownNow();
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket socket : connections) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
