package com.payorch.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** Every relative link of the README and docs/ names a file that exists and, with a #fragment, a heading in it. */
class DocsLinksTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$");

    @Test
    void everyRelativeLinkResolves() throws IOException {
        Path root = RepositoryRoot.find();
        List<Path> documents = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
        }

        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path document : documents) {
            Matcher link = LINK.matcher(withoutCodeBlocks(Files.readString(document)));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue;
                }
                links++;
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String fragment = target.contains("#") ? target.substring(target.indexOf('#') + 1) : "";
                Path resolved = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(root.relativize(document) + ": no file " + target);
                } else if (!fragment.isEmpty() && resolved.toString().endsWith(".md")
                        && !anchors(resolved).contains(fragment)) {
                    broken.add(root.relativize(document) + ": no heading for " + target);
                }
            }
        }

        assertThat(links).as("relative links found").isPositive();
        assertThat(broken).as("broken links").isEmpty();
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
    static Set<String> anchors(Path markdown) {
        Set<String> anchors = new HashSet<>();
        for (String line : withoutCodeBlocks(read(markdown)).lines().toList()) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String anchor = heading.group(1).trim().toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
                String unique = anchor;
                for (int n = 1; !anchors.add(unique); n++) {
                    unique = anchor + "-" + n;
                }
            }
        }
        return anchors;
    }

    private static String withoutCodeBlocks(String markdown) {
        return markdown.replaceAll("(?ms)^```.*?^```", "");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
