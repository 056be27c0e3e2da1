package com.payorch.confirmations;

import java.util.concurrent.atomic.AtomicInteger;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import reactor.core.publisher.Mono;

/**
 * Makes confirmations misbehave the way a dying process does; off unless armed. Import it into a test's context: it
 * wraps the {@link BookingConfirmationConsumer} bean (a subclass proxy, so it is still injected as that type), and a
 * test injects this class to arm the faults.
 */
@TestConfiguration(proxyBeanMethods = false)
public class ConfirmationFaults {

    private final AtomicInteger failuresBeforeSending = new AtomicInteger();
    private final AtomicInteger failuresAfterRecording = new AtomicInteger();

    /**
     * The next confirmation delivery fails before it sends anything, as a mail server outage would. Each call arms
     * one.
     */
    public void failNextBeforeSending() {
        failuresBeforeSending.incrementAndGet();
    }

    /**
     * The next confirmation is sent and recorded (booking.confirmation_sent committed), and then its delivery fails,
     * as if the process died before the relay marked the booking.activated event dispatched. Each call arms one.
     */
    public void failNextAfterRecording() {
        failuresAfterRecording.incrementAndGet();
    }

    @Bean
    static BeanPostProcessor confirmationFaultsAroundTheConsumer(ObjectProvider<ConfirmationFaults> faults) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                return bean instanceof BookingConfirmationConsumer consumer ? faults.getObject().around(consumer)
                        : bean;
            }
        };
    }

    private Object around(BookingConfirmationConsumer consumer) {
        ProxyFactory proxy = new ProxyFactory(consumer);
        proxy.setProxyTargetClass(true);
        proxy.addAdvice((MethodInterceptor) invocation -> {
            if (!invocation.getMethod().getName().equals("deliver")) {
                return invocation.proceed();
            }
            if (take(failuresBeforeSending)) {
                return Mono.error(new IllegalStateException("simulated failure before sending"));
            }
            return ((Mono<?>) invocation.proceed()).then(Mono.defer(() -> take(failuresAfterRecording)
                    ? Mono.error(new IllegalStateException("simulated crash after recording the confirmation"))
                    : Mono.empty()));
        });
        return proxy.getProxy(BookingConfirmationConsumer.class.getClassLoader());
    }

    private static boolean take(AtomicInteger armed) {
        return armed.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }
}
