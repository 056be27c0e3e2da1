package com.payorch.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md is generated from the configuration metadata the build writes; this test fails when the file
 * no longer matches what the build would write, and rewrites it when run with {@code -Ddocs.write=true}.
 */
class ConfigurationDocsTest {

    static final String REGENERATE = "./mvnw -q -o -pl payment-service -am test -Dtest=ConfigurationDocsTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Ddocs.write=true";

    @Test
    void docsConfigurationMdIsTheRenderedMetadata() throws IOException {
        Path file = RepositoryRoot.find().resolve("docs/configuration.md");
        String rendered = ConfigurationTable.render(ConfigurationMetadata.load());

        if (Boolean.getBoolean("docs.write")) {
            Files.writeString(file, rendered);
        }
        String committed = Files.exists(file) ? Files.readString(file) : "";
        if (!committed.equals(rendered)) {
            fail("docs/configuration.md is stale (first difference: " + firstDifference(committed, rendered)
                    + "). It is generated from the configuration metadata (the @ConfigurationProperties classes' "
                    + "javadoc and defaults, additional-spring-configuration-metadata.json, and "
                    + "src/test/resources/com/payorch/docs/keys-beyond-the-metadata.json). Regenerate it with\n  "
                    + REGENERATE + "\nand commit it.");
        }
    }

    @Test
    void everyKeyTheMetadataCannotHoldStillExists() {
        ConfigurationMetadata metadata = ConfigurationMetadata.load();

        assertThat(metadata.keysBeyondTheMetadata())
                .as("map entries resolve on the map's value type; Boot keys are in Boot's metadata")
                .isNotEmpty()
                .allSatisfy(key -> assertThat(metadata.exists(key.name()))
                        .as("%s is a key the service binds (renamed or removed? update %s)", key.name(),
                                ConfigurationMetadata.KEYS_BEYOND_THE_METADATA)
                        .isTrue());
    }

    @Test
    void theRenderedTableHasOneRowPerKeyAndNoUnescapedPipe() {
        ConfigurationMetadata metadata = ConfigurationMetadata.load();
        String rendered = ConfigurationTable.render(metadata);

        List<String> rows = rendered.lines().filter(line -> line.startsWith("| `")).toList();
        assertThat(rows).hasSize(metadata.all().size());
        assertThat(rows).allSatisfy(row -> assertThat(row.replace("\\|", "").chars().filter(c -> c == '|').count())
                .as(row).isEqualTo(5));
    }

    private static String firstDifference(String committed, String rendered) {
        List<String> a = committed.lines().toList();
        List<String> b = rendered.lines().toList();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String left = i < a.size() ? a.get(i) : "<end of file>";
            String right = i < b.size() ? b.get(i) : "<end of file>";
            if (!left.equals(right)) {
                return "line " + (i + 1) + ": committed \"" + left + "\", generated \"" + right + "\"";
            }
        }
        return "line endings";
    }
}
