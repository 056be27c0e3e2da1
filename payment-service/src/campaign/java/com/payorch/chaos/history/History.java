package com.payorch.chaos.history;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.json.JsonMapper;

/**
 * A campaign's history as JSON lines, one {@link HistoryEntry} each, appended by many clients at once. The file is
 * the record a failed run leaves behind and what the checker reads.
 */
public final class History implements AutoCloseable {

    private static final JsonMapper JSON = new JsonMapper();

    private final BufferedWriter out;
    private final AtomicLong seq = new AtomicLong();

    private History(BufferedWriter out) {
        this.out = out;
    }

    public static History create(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            return new History(Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Records the entry with the next sequence number and the current time (whatever the entry carried). */
    public synchronized HistoryEntry record(HistoryEntry entry) {
        HistoryEntry numbered = new HistoryEntry(seq.getAndIncrement(), System.currentTimeMillis(), entry.kind(),
                entry.process(), entry.operation(), entry.target(), entry.method(), entry.path(),
                entry.requestHeaders(), entry.requestBody(), entry.status(), entry.responseHeaders(),
                entry.responseBody(), entry.note());
        try {
            out.write(JSON.writeValueAsString(numbered));
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return numbered;
    }

    public synchronized void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<HistoryEntry> read(Path file) {
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.filter(line -> !line.isBlank())
                    .map(line -> JSON.readValue(line, HistoryEntry.class))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
