package com.payorch.chaos.world;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy for one link of the campaign's world (an instance to PostgreSQL, to a PSP fake, to SMTP), on a fixed
 * local port for its whole life, so the nemesis can break the link without the two ends knowing:
 * <ul>
 *   <li>{@link Mode#FROZEN}: no byte moves in either direction (new connections are accepted, nothing flows) until
 *       healed; what was read meanwhile is delivered then;</li>
 *   <li>{@link Mode#DELAYED}: every chunk is delivered {@code delay} milliseconds after it was read;</li>
 *   <li>{@link Mode#ANSWERS_LOST}: requests go through, but the first bytes of an answer are dropped and the
 *       connection is reset on both sides (RST): the server did the work, the client never learns it (a PSP that
 *       charged, an answer lost on the way);</li>
 *   <li>{@link #reset()}: every open connection is closed abruptly (RST to both ends), once;</li>
 *   <li>with {@link #keys(IdempotencyKeyMemory)} (a link to a PSP): requests pass the PSP's memory of idempotency
 *       keys, which may have forgotten theirs.</li>
 * </ul>
 * Blocking sockets, two threads per connection (one per direction): the links carry tens of connections.
 */
public final class LinkProxy implements AutoCloseable {

    public enum Mode { NORMAL, FROZEN, DELAYED, ANSWERS_LOST }

    private final String name;
    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Set<Pair> pairs = ConcurrentHashMap.newKeySet();
    private final Object modeLock = new Object();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong answersDropped = new AtomicLong();
    private volatile Mode mode = Mode.NORMAL;
    private volatile long delayMillis;
    private volatile IdempotencyKeyMemory keys;
    private volatile boolean closed;

    private LinkProxy(String name, ServerSocket server, InetSocketAddress target) {
        this.name = name;
        this.server = server;
        this.target = target;
    }

    /** Listens on {@code port} (0: any free one) of the loopback address and forwards to {@code targetPort}. */
    public static LinkProxy start(String name, int port, int targetPort) {
        try {
            ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            LinkProxy proxy = new LinkProxy(name, server,
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
            Thread acceptor = new Thread(proxy::acceptLoop, "proxy-" + name + "-accept");
            acceptor.setDaemon(true);
            acceptor.start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("proxy " + name + " could not listen on " + port, e);
        }
    }

    public String name() {
        return name;
    }

    public int port() {
        return server.getLocalPort();
    }

    public Mode mode() {
        return mode;
    }

    /** Connections accepted so far. */
    public long connections() {
        return connections.get();
    }

    /** Connections currently open. */
    public int openConnections() {
        return pairs.size();
    }

    /** Answers dropped (connections reset) in {@link Mode#ANSWERS_LOST}. */
    public long answersDropped() {
        return answersDropped.get();
    }

    public void freeze() {
        setMode(Mode.FROZEN);
    }

    public void delay(long millis) {
        delayMillis = millis;
        setMode(Mode.DELAYED);
    }

    /** Requests on this link pass the PSP's memory of keys (see {@link IdempotencyKeyMemory}). */
    public LinkProxy keys(IdempotencyKeyMemory memory) {
        this.keys = memory;
        return this;
    }

    public void loseAnswers() {
        setMode(Mode.ANSWERS_LOST);
    }

    /** Back to forwarding everything at once; frozen bytes flow again. */
    public void heal() {
        setMode(Mode.NORMAL);
    }

    /** Closes every open connection abruptly (RST to both ends); the link keeps accepting new ones. */
    public int reset() {
        int count = 0;
        for (Pair pair : pairs) {
            pair.abort();
            count++;
        }
        return count;
    }

    private void setMode(Mode next) {
        synchronized (modeLock) {
            mode = next;
            modeLock.notifyAll();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                continue;
            }
            connections.incrementAndGet();
            Thread opener = new Thread(() -> open(client), "proxy-" + name + "-open");
            opener.setDaemon(true);
            opener.start();
        }
    }

    private void open(Socket client) {
        Socket upstream = new Socket();
        try {
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
            upstream.connect(target, 5_000);
        } catch (IOException e) {
            abort(client);
            abort(upstream);
            return;
        }
        Pair pair = new Pair(client, upstream);
        pairs.add(pair);
        if (closed) {
            pair.abort();
            return;
        }
        start(pair, client, upstream, false);
        start(pair, upstream, client, true);
    }

    private void start(Pair pair, Socket from, Socket to, boolean answers) {
        Thread pump = new Thread(() -> pump(pair, from, to, answers),
                "proxy-" + name + (answers ? "-down" : "-up"));
        pump.setDaemon(true);
        pump.start();
    }

    private void pump(Pair pair, Socket from, Socket to, boolean answers) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            while (true) {
                int read = in.read(buffer);
                if (read < 0) {
                    to.shutdownOutput();
                    return;
                }
                long readAt = System.nanoTime();
                Mode current = awaitFlowing();
                if (current == Mode.ANSWERS_LOST && answers) {
                    answersDropped.incrementAndGet();
                    pair.abort();
                    return;
                }
                if (current == Mode.DELAYED) {
                    long due = readAt + delayMillis * 1_000_000L;
                    long wait;
                    while ((wait = due - System.nanoTime()) > 0) {
                        Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                    }
                }
                IdempotencyKeyMemory memory = keys;
                byte[] rewritten = memory == null || answers ? null : memory.pass(buffer, read);
                if (rewritten != null) {
                    out.write(rewritten);
                } else {
                    out.write(buffer, 0, read);
                }
                out.flush();
            }
        } catch (IOException e) {
            pair.abort();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pair.abort();
        } finally {
            pair.pumpEnded();
        }
    }

    /** Waits while the link is frozen; the mode that lets the bytes go. */
    private Mode awaitFlowing() throws InterruptedException {
        synchronized (modeLock) {
            while (mode == Mode.FROZEN && !closed) {
                modeLock.wait(200);
            }
            return mode;
        }
    }

    private static void abort(Socket socket) {
        try {
            if (!socket.isClosed()) {
                if (socket.isConnected()) {
                    socket.setSoLinger(true, 0); // close = RST
                }
                socket.close();
            }
        } catch (IOException ignored) {
            // already gone
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    private final class Pair {
        private final Socket client;
        private final Socket upstream;

        private final java.util.concurrent.atomic.AtomicInteger pumps = new java.util.concurrent.atomic.AtomicInteger(2);

        Pair(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        /** Both directions ended (end of stream each way, or an error): the pair is closed and forgotten. */
        void pumpEnded() {
            if (pumps.decrementAndGet() == 0) {
                closeQuietly(client);
                closeQuietly(upstream);
                pairs.remove(this);
            }
        }

        void abort() {
            LinkProxy.abort(client);
            LinkProxy.abort(upstream);
            pairs.remove(this);
        }
    }

    @Override
    public void close() {
        closed = true;
        setMode(Mode.NORMAL);
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        pairs.forEach(Pair::abort);
    }

    @Override
    public String toString() {
        return "LinkProxy[" + name + " :" + port() + " -> :" + target.getPort() + " " + mode + "]";
    }
}
