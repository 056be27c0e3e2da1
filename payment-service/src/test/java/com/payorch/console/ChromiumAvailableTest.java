package com.payorch.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;

/** Without chromium the browser tests are skipped with a reason that names the install command, never silently. */
class ChromiumAvailableTest {

    @Test
    void aMissingBrowserSkipsNamingTheInstallCommand() {
        ConditionEvaluationResult result = new ChromiumAvailable(Path.of("/nonexistent/chromium"),
                ChromiumAvailable.CHROMEDRIVER).evaluateExecutionCondition(null);
        assertThat(result.isDisabled()).isTrue();
        assertThat(result.getReason()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("apt-get install -y chromium chromium-driver").contains("/nonexistent/chromium"));
    }
}
