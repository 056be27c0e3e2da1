package com.payorch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.awaitility.Awaitility;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The service in a JVM of its own (the test's classpath, {@link ServiceInstances#commandLine} on the test database),
 * so that a test can kill it for real: {@link #kill()} is SIGKILL, no shutdown hook, no transaction finished, no
 * response written. The output goes to a file, shown when the start fails.
 */
public final class ServiceJvm implements AutoCloseable {

    private static final Duration START = Duration.ofSeconds(120);

    private final Process process;
    private final Path log;
    private final int port;

    private ServiceJvm(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /** Starts the service and waits until it answers HTTP. */
    public static ServiceJvm start(String schema, List<String> arguments, Path logFile) {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1", // a short-lived JVM: start fast rather than run fast
                "-cp", System.getProperty("java.class.path"),
                PaymentServiceApplication.class.getName()));
        ServiceInstances.commandLine(schema, arguments).stream()
                .filter(argument -> !argument.startsWith("--server.port="))
                .forEach(command::add);
        command.add("--server.port=" + port);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ServiceJvm jvm = new ServiceJvm(process, logFile, port);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        Awaitility.await().atMost(START).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> !process.isAlive() || http.send(HttpRequest.newBuilder(
                                URI.create("http://localhost:" + port + "/v1/payments")).GET().build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 401);
        assertThat(process.isAlive()).as("service JVM output:%n%s", jvm.output()).isTrue();
        return jvm;
    }

    public WebClient client() {
        return WebClient.builder().baseUrl("http://localhost:" + port).build();
    }

    /** SIGKILL, and waits until the process is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.onExit().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("service JVM did not die", e);
        }
    }

    public String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
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
