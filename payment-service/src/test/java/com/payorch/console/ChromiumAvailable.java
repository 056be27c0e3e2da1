package com.payorch.console;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Browser tests run only where Debian's chromium and chromedriver are installed; elsewhere they are reported as
 * skipped, with the command that installs them (never silently passed). {@code .ci/run} installs both.
 */
public class ChromiumAvailable implements ExecutionCondition {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final Path chromium;
    private final Path chromedriver;

    ChromiumAvailable() {
        this(CHROMIUM, CHROMEDRIVER);
    }

    ChromiumAvailable(Path chromium, Path chromedriver) {
        this.chromium = chromium;
        this.chromedriver = chromedriver;
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (Files.isExecutable(chromium) && Files.isExecutable(chromedriver)) {
            return ConditionEvaluationResult.enabled("chromium and chromedriver found");
        }
        return ConditionEvaluationResult.disabled("SKIPPED browser test: " + chromium + " or " + chromedriver
                + " is missing; install them with: apt-get install -y chromium chromium-driver");
    }
}
