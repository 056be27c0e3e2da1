package com.payorch.testsupport;

import static org.awaitility.Awaitility.await;

import com.payorch.PaymentServiceApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The service in a JVM of its own, as deployed (PaymentServiceApplication's main, the test classpath), on the test
 * database and a schema of the test's own ({@link ServiceInstances#commandLine}): for tests that send it signals. {@link #terminate()} is SIGTERM on Linux
 * (shutdown hooks run: the graceful path), {@link #kill()} SIGKILL (nothing runs). Output goes to a file.
 */
public final class ServiceJvm implements AutoCloseable {

    private static final Duration START = Duration.ofSeconds(120);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final Path log;
    private final int port;

    private ServiceJvm(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /** Starts it and waits until {@code /actuator/health/readiness} answers 200. */
    public static ServiceJvm start(Path log, String schema, List<String> arguments) {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1", // a short-lived JVM: start fast rather than run fast
                "-cp", System.getProperty("java.class.path"),
                PaymentServiceApplication.class.getName(),
                "--server.port=" + port,
                "--logging.level.org.springframework.boot=INFO"));
        // The test database and schema as for in-JVM instances, but the shutdown the service ships with (graceful).
        ServiceInstances.commandLine(schema, arguments).stream()
                .filter(argument -> !argument.startsWith("--server.port=") && !argument.startsWith("--server.shutdown="))
                .forEach(command::add);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            ServiceJvm jvm = new ServiceJvm(process, log, port);
            await().atMost(START).pollInSameThread().until(() -> !process.isAlive() || jvm.readinessStatus() == 200);
            if (!process.isAlive()) {
                throw new IllegalStateException("The service JVM exited at start:\n" + jvm.output());
            }
            return jvm;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    public String baseUrl() {
        return "http://localhost:" + port;
    }

    public WebClient client() {
        return WebClient.builder().baseUrl(baseUrl()).build();
    }

    /** The HTTP status of {@code GET /actuator/health/readiness}, or -1 when nothing answers. */
    public int readinessStatus() {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health/readiness"))
                            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** SIGTERM (Process.destroy on Linux): the JVM runs its shutdown hooks, Spring closes the context. */
    public void terminate() {
        process.destroy();
    }

    /** SIGKILL: the process ends at once, nothing of it runs any more; returns when it is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.onExit().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("The service JVM did not die", e);
        }
    }

    /** Waits for the process to end; its exit code. */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("The service JVM did not exit within " + timeout + ":\n" + output());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Everything the JVM printed so far (stdout and stderr). */
    public String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
