package com.payorch.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service's configuration keys: what the configuration processor wrote for this project's modules, plus the keys
 * it cannot see (entries of map-valued properties, Spring Boot keys the service relies on), which
 * {@link #KEYS_BEYOND_THE_METADATA} describes and {@link #exists} checks.
 */
final class ConfigurationMetadata {

    static final String METADATA = "META-INF/spring-configuration-metadata.json";
    static final String KEYS_BEYOND_THE_METADATA = "com/payorch/docs/keys-beyond-the-metadata.json";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<String, ConfigurationKey> own;
    private final Set<String> groups;
    private final List<ConfigurationKey> beyond;
    private final Map<String, @Nullable String> bootTypes;

    private ConfigurationMetadata(Map<String, ConfigurationKey> own, Set<String> groups, List<ConfigurationKey> beyond,
                                  Map<String, @Nullable String> bootTypes) {
        this.own = own;
        this.groups = groups;
        this.beyond = beyond;
        this.bootTypes = bootTypes;
    }

    private static @Nullable ConfigurationMetadata loaded;

    /** Read once per test JVM: Boot's own metadata files are large. */
    static synchronized ConfigurationMetadata load() {
        if (loaded == null) {
            loaded = read();
        }
        return loaded;
    }

    private static ConfigurationMetadata read() {
        Map<String, ConfigurationKey> own = new LinkedHashMap<>();
        Set<String> groups = new TreeSet<>();
        Map<String, @Nullable String> bootTypes = new LinkedHashMap<>();
        for (URL url : metadataFiles()) {
            JsonNode metadata = read(url);
            boolean ours = url.getProtocol().equals("file");
            for (JsonNode property : metadata.path("properties")) {
                String name = property.path("name").asString();
                if (ours) {
                    ConfigurationKey key = new ConfigurationKey(name, text(property, "type"),
                            defaultValue(property.path("defaultValue")), false, text(property, "description"), false);
                    // Two classes may bind one map (payments.merchants): keep the entry that is described.
                    own.merge(name, key, (first, second) -> first.description() != null ? first : second);
                } else {
                    bootTypes.putIfAbsent(name, text(property, "type"));
                }
            }
            if (ours) {
                metadata.path("groups").forEach(group -> groups.add(group.path("name").asString()));
            }
        }
        if (own.isEmpty()) {
            throw new IllegalStateException("no " + METADATA + " in this project's classes: compile payment-service "
                    + "first (the configuration processor writes it)");
        }
        JsonNode extra = read(resource(KEYS_BEYOND_THE_METADATA));
        extra.path("groups").forEach(group -> groups.add(group.path("name").asString()));
        List<ConfigurationKey> beyond = new ArrayList<>();
        for (JsonNode property : extra.path("properties")) {
            String name = property.path("name").asString();
            boolean fromSpringBoot = !name.contains("<");
            String type = text(property, "type");
            beyond.add(new ConfigurationKey(name, type != null ? type : bootTypes.get(name),
                    text(property, "defaultValue"), true, text(property, "description"), fromSpringBoot));
        }
        return new ConfigurationMetadata(own, groups, beyond, bootTypes);
    }

    /** Every key, the project's own first (by name), then those beyond the metadata (in their file's order). */
    List<ConfigurationKey> all() {
        List<ConfigurationKey> all = new ArrayList<>(own.values());
        all.addAll(beyond);
        return all;
    }

    Set<String> groups() {
        return Collections.unmodifiableSet(groups);
    }

    List<ConfigurationKey> keysBeyondTheMetadata() {
        return beyond;
    }

    /**
     * Whether the service binds this key: a map entry ({@code payments.merchants.<id>.routing}) must name a field of
     * the map's value type, a Spring Boot key must be in Boot's metadata (or be an entry of a map it describes).
     */
    boolean exists(String name) {
        List<String> segments = Arrays.asList(name.split("\\."));
        int placeholder = indexOfPlaceholder(segments);
        if (placeholder < 0) {
            return bootTypes.containsKey(name) || bootTypes.entrySet().stream()
                    .anyMatch(e -> name.startsWith(e.getKey() + ".") && isMap(e.getValue()));
        }
        String map = String.join(".", segments.subList(0, placeholder));
        return mapValueTypes(map).stream()
                .anyMatch(valueType -> resolves(valueType, segments.subList(placeholder + 1, segments.size())));
    }

    private List<Class<?>> mapValueTypes(String mapKey) {
        // Two classes may bind the same map; the metadata keeps one entry per class, so read them all again.
        List<Class<?>> types = new ArrayList<>();
        for (URL url : metadataFiles()) {
            if (!url.getProtocol().equals("file")) {
                continue;
            }
            for (JsonNode property : read(url).path("properties")) {
                String type = text(property, "type");
                if (property.path("name").asString().equals(mapKey) && isMap(type)) {
                    types.add(load(type.substring(type.indexOf(',') + 1, type.length() - 1)));
                }
            }
        }
        return types;
    }

    private static boolean resolves(Type type, List<String> segments) {
        if (segments.isEmpty()) {
            return true;
        }
        String segment = segments.get(0);
        List<String> rest = segments.subList(1, segments.size());
        if (segment.startsWith("<")) {
            return type instanceof ParameterizedType map && map.getRawType() == Map.class
                    && resolves(map.getActualTypeArguments()[1], rest);
        }
        Class<?> raw = type instanceof ParameterizedType parameterized ? (Class<?>) parameterized.getRawType()
                : (Class<?>) type;
        String field = camelCase(segment);
        for (Class<?> c = raw; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(field)) {
                    return resolves(f.getGenericType(), rest);
                }
            }
        }
        return false;
    }

    private static String camelCase(String kebab) {
        String[] words = kebab.split("-");
        return words[0] + Arrays.stream(words).skip(1)
                .map(word -> Character.toUpperCase(word.charAt(0)) + word.substring(1)).collect(Collectors.joining());
    }

    private static int indexOfPlaceholder(List<String> segments) {
        for (int i = 0; i < segments.size(); i++) {
            if (segments.get(i).startsWith("<")) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isMap(@Nullable String type) {
        return type != null && type.startsWith("java.util.Map<");
    }

    private static Class<?> load(String className) {
        try {
            return Class.forName(className);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the metadata names a class that is not on the classpath: " + className, e);
        }
    }

    private static @Nullable String defaultValue(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (node.isArray()) {
            List<String> values = new ArrayList<>();
            node.forEach(value -> values.add(value.asString()));
            return String.join(",", values);
        }
        return node.asString();
    }

    private static @Nullable String text(JsonNode node, String member) {
        JsonNode value = node.path(member);
        return value.isMissingNode() || value.isNull() ? null : value.asString();
    }

    private static List<URL> metadataFiles() {
        try {
            return Collections.list(ConfigurationMetadata.class.getClassLoader().getResources(METADATA));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static URL resource(String name) {
        URL url = ConfigurationMetadata.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IllegalStateException(name + " is not on the test classpath");
        }
        return url;
    }

    private static JsonNode read(URL url) {
        try (InputStream in = url.openStream()) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
