package com.payorch.chaos.world;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One service instance as deployed: its own JVM ({@code java -jar} the boot jar, or the main class on a classpath
 * when there is no jar yet, as in a test run before {@code package}), on a fixed port that a restart reuses, its
 * output appended to one log file across restarts. {@link #kill()} is SIGKILL.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final int port;
    private final List<String> launch;
    private final List<String> arguments;
    private final Path log;
    private volatile Process process;
    private volatile int starts;

    /**
     * @param launch the JVM and what it runs, e.g. {@code [java, -Xmx384m, -jar, x.jar]}
     * @param arguments the application's arguments ({@code --key=value}), the port included
     */
    public ServiceProcess(String name, int port, List<String> launch, List<String> arguments, Path log) {
        this.name = name;
        this.port = port;
        this.launch = List.copyOf(launch);
        this.arguments = List.copyOf(arguments);
        this.log = log;
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public String baseUrl() {
        return "http://localhost:" + port;
    }

    public Path log() {
        return log;
    }

    /** Starts the JVM (not waiting for it to be ready). */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is running");
        }
        List<String> command = new ArrayList<>(launch);
        command.addAll(arguments);
        try {
            Files.writeString(log, "\n===== " + name + " start #" + (++starts) + " at " + Instant.now() + " =====\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name, e);
        }
    }

    /** Waits until {@code /actuator/health/readiness} answers 200; fails when the JVM exits or time runs out. */
    public void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (readinessStatus() != 200) {
            Process current = process;
            if (current == null || !current.isAlive()) {
                throw new IllegalStateException(name + " exited during its start, see " + log);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " was not ready within " + timeout + ", see " + log);
            }
            try {
                current.waitFor(250, TimeUnit.MILLISECONDS); // poll: returns early if it dies
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** The HTTP status of the readiness probe, or -1 when nothing answers. */
    public int readinessStatus() {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health/readiness"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    public boolean isAlive() {
        Process current = process;
        return current != null && current.isAlive();
    }

    public long pid() {
        Process current = process;
        return current == null ? -1 : current.pid();
    }

    /** SIGKILL; returns when the process is gone. */
    public void kill() {
        Process current = process;
        if (current == null) {
            return;
        }
        current.destroyForcibly();
        try {
            current.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGTERM (graceful), then SIGKILL after {@code grace}. */
    public void stop(Duration grace) {
        Process current = process;
        if (current == null || !current.isAlive()) {
            return;
        }
        current.destroy();
        try {
            if (!current.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
        }
    }

    public int starts() {
        return starts;
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(10));
    }

    @Override
    public String toString() {
        return name + "(:" + port + ", pid " + pid() + ")";
    }
}
