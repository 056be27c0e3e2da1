package com.payorch.testsupport;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Statement;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.reactivestreams.Publisher;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import reactor.core.publisher.Flux;
import reactor.util.context.ContextView;

/**
 * Counts the round trips a piece of reactive work makes to PostgreSQL: every statement executed and every
 * begin, commit and rollback, but only those subscribed under a Reactor context that carries a {@link Log} (put
 * there with {@code mono.contextWrite(log::into)}), so background jobs running meanwhile are not counted. Import it
 * into a test's context ({@code @Import(StatementCounting.class)}): it wraps the application's ConnectionFactory.
 */
@TestConfiguration(proxyBeanMethods = false)
public class StatementCounting {

    /** What the work sent, in order: the SQL of each statement, or BEGIN, COMMIT, ROLLBACK. */
    public static final class Log {

        private final List<String> sent = new CopyOnWriteArrayList<>();

        public reactor.util.context.Context into(reactor.util.context.Context context) {
            return context.put(Log.class, this);
        }

        public List<String> sent() {
            return List.copyOf(sent);
        }

        /** Statements only, without begin and commit. */
        public List<String> statements() {
            return sent.stream().filter(s -> !List.of("BEGIN", "COMMIT", "ROLLBACK").contains(s)).toList();
        }

        void add(String what) {
            sent.add(what);
        }
    }

    @Bean
    static BeanPostProcessor countingConnectionFactory() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                return bean instanceof ConnectionFactory factory && "connectionFactory".equals(beanName)
                        ? proxy(factory, ConnectionFactory.class) : bean;
            }
        };
    }

    private static <T> T proxy(Object target, Class<T> type) {
        Class<?>[] interfaces = allInterfaces(target.getClass());
        InvocationHandler handler = (self, method, args) -> {
            Object result = invoke(target, method, args);
            if (result == target) {
                return self;
            }
            return around(target, method, args, result);
        };
        return type.cast(Proxy.newProxyInstance(StatementCounting.class.getClassLoader(), interfaces, handler));
    }

    @SuppressWarnings("unchecked")
    private static Object around(Object target, Method method, Object[] args, Object result) {
        String name = method.getName();
        if (target instanceof ConnectionFactory && name.equals("create")) {
            return Flux.from((Publisher<Connection>) result).map(c -> proxy(c, Connection.class)).next();
        }
        if (target instanceof Connection && name.equals("createStatement")) {
            String sql = (String) args[0];
            return proxy(result, Statement.class, sql);
        }
        if (target instanceof Connection && (name.equals("beginTransaction") || name.equals("commitTransaction")
                || name.equals("rollbackTransaction"))) {
            String what = name.equals("beginTransaction") ? "BEGIN" : name.equals("commitTransaction") ? "COMMIT"
                    : "ROLLBACK";
            return counted((Publisher<?>) result, what);
        }
        return result;
    }

    private static Statement proxy(Object statement, Class<Statement> type, String sql) {
        InvocationHandler handler = (self, method, args) -> {
            Object result = invoke(statement, method, args);
            if (result == statement) {
                return self;
            }
            return method.getName().equals("execute") ? counted((Publisher<?>) result, sql.strip()) : result;
        };
        return type.cast(Proxy.newProxyInstance(StatementCounting.class.getClassLoader(),
                allInterfaces(statement.getClass()), handler));
    }

    private static Publisher<?> counted(Publisher<?> publisher, String what) {
        return Flux.deferContextual((ContextView context) -> {
            context.<Log>getOrEmpty(Log.class).ifPresent(log -> log.add(what));
            return Flux.from(publisher);
        });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            method.setAccessible(true);
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static Class<?>[] allInterfaces(Class<?> type) {
        java.util.Set<Class<?>> interfaces = new java.util.LinkedHashSet<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Class<?> i : c.getInterfaces()) {
                collect(i, interfaces);
            }
        }
        return interfaces.stream().filter(i -> java.lang.reflect.Modifier.isPublic(i.getModifiers()))
                .toArray(Class<?>[]::new);
    }

    private static void collect(Class<?> type, java.util.Set<Class<?>> into) {
        if (into.add(type)) {
            for (Class<?> parent : type.getInterfaces()) {
                collect(parent, into);
            }
        }
    }
}
