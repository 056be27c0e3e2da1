package com.payorch.testsupport;

import ch.qos.logback.classic.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/** Asks Testcontainers whether a Docker engine is reachable, without its ERROR log when there is none. */
final class DockerAvailability {

    private DockerAvailability() {
    }

    static boolean isAvailable() {
        Logger testcontainers = LoggerFactory.getLogger("org.testcontainers");
        if (!(testcontainers instanceof ch.qos.logback.classic.Logger logback)) {
            return askTestcontainers();
        }
        Level previous = logback.getLevel();
        logback.setLevel(Level.OFF);
        try {
            return askTestcontainers();
        } finally {
            logback.setLevel(previous);
        }
    }

    private static boolean askTestcontainers() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
