package com.payorch.docs;

import org.jspecify.annotations.Nullable;

/**
 * One configuration key as docs/configuration.md shows it.
 *
 * @param defaultValue        the default as the metadata gives it, or null when it gives none
 * @param defaultIsMarkdown   true when the default is already written for the docs (keys beyond the metadata)
 * @param fromSpringBoot      a key of Spring Boot's own that the service relies on
 */
record ConfigurationKey(String name, @Nullable String type, @Nullable String defaultValue, boolean defaultIsMarkdown,
                        @Nullable String description, boolean fromSpringBoot) {
}
