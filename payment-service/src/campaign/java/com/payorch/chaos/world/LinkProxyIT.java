package com.payorch.chaos.world;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each mode of a link, against a real socket server that answers every line with {@code answer:<line>} and records
 * what it received: the proxy forwards, freezes, delays, resets, and lets requests through while their answers are
 * lost.
 */
class LinkProxyIT {

    private LineServer server;
    private LinkProxy link;

    @BeforeEach
    void start() throws IOException {
        server = new LineServer();
        link = LinkProxy.start("test.link", 0, server.port());
    }

    @AfterEach
    void stop() throws IOException {
        link.close();
        server.close();
    }

    @Test
    void forwardsBothWays() throws Exception {
        try (Client client = new Client(link.port())) {
            assertThat(client.ask("hello")).isEqualTo("answer:hello");
            assertThat(client.ask("again")).isEqualTo("answer:again");
        }
        assertThat(server.received).containsExactly("hello", "again");
        assertThat(link.connections()).isEqualTo(1);
    }

    @Test
    void aFrozenLinkMovesNoByteUntilHealedThenDeliversWhatWaited() throws Exception {
        try (Client client = new Client(link.port())) {
            assertThat(client.ask("before")).isEqualTo("answer:before");
            link.freeze();
            CompletableFuture<String> answer = client.askAsync("frozen");
            await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2))
                    .until(() -> !server.received.contains("frozen") && !answer.isDone());

            link.heal();
            assertThat(answer.get(5, TimeUnit.SECONDS)).isEqualTo("answer:frozen");
            assertThat(server.received).containsExactly("before", "frozen");
        }
    }

    @Test
    void aDelayedLinkDeliversEveryChunkThatMuchLaterInEachDirection() throws Exception {
        try (Client client = new Client(link.port())) {
            assertThat(client.ask("warm-up")).isEqualTo("answer:warm-up");
            link.delay(400);
            long began = System.nanoTime();
            assertThat(client.ask("slow")).isEqualTo("answer:slow");
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            assertThat(tookMillis).as("request and answer each 400 ms late").isGreaterThanOrEqualTo(800);

            link.heal();
            began = System.nanoTime();
            assertThat(client.ask("fast")).isEqualTo("answer:fast");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isLessThan(400);
        }
    }

    @Test
    void aResetClosesEveryOpenConnectionAbruptlyAndTheLinkKeepsWorking() throws Exception {
        try (Client first = new Client(link.port()); Client second = new Client(link.port())) {
            assertThat(first.ask("one")).isEqualTo("answer:one");
            assertThat(second.ask("two")).isEqualTo("answer:two");
            CompletableFuture<String> pending = CompletableFuture.supplyAsync(first::readLine);

            assertThat(link.reset()).isEqualTo(2);

            assertThat(failureOf(pending)).isInstanceOf(SocketException.class);
            await().atMost(Duration.ofSeconds(5)).until(() -> link.openConnections() == 0);
        }
        try (Client next = new Client(link.port())) {
            assertThat(next.ask("three")).isEqualTo("answer:three");
        }
    }

    @Test
    void withAnswersLostTheRequestIsServedButTheClientGetsAResetInsteadOfTheAnswer() throws Exception {
        link.loseAnswers();
        try (Client client = new Client(link.port())) {
            CompletableFuture<String> answer = client.askAsync("charge-me");
            await().atMost(Duration.ofSeconds(5)).until(() -> server.received.contains("charge-me"));
            assertThat(failureOf(answer)).isInstanceOf(SocketException.class);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> server.answered.contains("charge-me"));
        assertThat(link.answersDropped()).isEqualTo(1);

        link.heal();
        try (Client client = new Client(link.port())) {
            assertThat(client.ask("after")).isEqualTo("answer:after");
        }
    }

    private static Throwable failureOf(CompletableFuture<String> future) throws Exception {
        try {
            String value = future.get(10, TimeUnit.SECONDS);
            throw new AssertionError("expected the connection to be reset, got " + value);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            return cause instanceof java.io.UncheckedIOException unchecked ? unchecked.getCause() : cause;
        }
    }

    /** A client of the line protocol. */
    private static final class Client implements AutoCloseable {
        private final Socket socket;
        private final BufferedReader in;
        private final OutputStream out;

        Client(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out = socket.getOutputStream();
        }

        String ask(String line) throws Exception {
            return askAsync(line).get(10, TimeUnit.SECONDS);
        }

        CompletableFuture<String> askAsync(String line) throws IOException {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return CompletableFuture.supplyAsync(this::readLine);
        }

        String readLine() {
            try {
                String line = in.readLine();
                if (line == null) {
                    throw new java.io.UncheckedIOException(new SocketException("end of stream"));
                }
                return line;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** Answers each line with {@code answer:<line>}; records what it received and what it answered. */
    private static final class LineServer implements AutoCloseable {
        final List<String> received = new CopyOnWriteArrayList<>();
        final List<String> answered = new CopyOnWriteArrayList<>();
        private final ServerSocket socket;

        LineServer() throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread acceptor = new Thread(this::accept, "line-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket connection = socket.accept();
                    Thread serve = new Thread(() -> serve(connection), "line-server-connection");
                    serve.setDaemon(true);
                    serve.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket connection) {
            try (connection; BufferedReader in = new BufferedReader(
                    new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8))) {
                OutputStream out = connection.getOutputStream();
                String line;
                while ((line = in.readLine()) != null) {
                    received.add(line);
                    out.write(("answer:" + line + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    answered.add(line);
                }
            } catch (IOException e) {
                // reset by the proxy
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
