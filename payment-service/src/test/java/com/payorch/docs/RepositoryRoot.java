package com.payorch.docs;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's top folder, found from wherever the test runs (Maven runs it in the module's folder). */
final class RepositoryRoot {

    private RepositoryRoot() {
    }

    static Path find() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("docs"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no folder with mvnw and docs/ above " + Path.of("").toAbsolutePath());
    }
}
