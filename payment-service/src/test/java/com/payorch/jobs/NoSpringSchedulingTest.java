package com.payorch.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.util.ClassUtils;

/**
 * Background work runs as {@link PeriodicJob}s, each on its own thread. Spring's {@code @Scheduled} would put it back
 * on the one shared scheduler thread (and without {@code @EnableScheduling} it would silently never run).
 */
class NoSpringSchedulingTest {

    @Test
    void noClassOfTheServiceUsesScheduledOrEnableScheduling() throws Exception {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false) {
            @Override
            protected boolean isCandidateComponent(org.springframework.beans.factory.annotation.AnnotatedBeanDefinition definition) {
                return true;
            }
        };
        scanner.addIncludeFilter((reader, factory) -> !reader.getClassMetadata().getClassName().endsWith("Test")
                && !reader.getClassMetadata().getClassName().endsWith("IT"));
        List<String> offenders = new ArrayList<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("com.payorch")) {
            Class<?> type = ClassUtils.forName(candidate.getBeanClassName(), getClass().getClassLoader());
            if (AnnotatedElementUtils.hasAnnotation(type, EnableScheduling.class)) {
                offenders.add(type.getName());
            }
            for (Method method : type.getDeclaredMethods()) {
                if (AnnotatedElementUtils.hasAnnotation(method, Scheduled.class)) {
                    offenders.add(type.getName() + "#" + method.getName());
                }
            }
        }
        assertThat(offenders).as("use a PeriodicJob bean instead").isEmpty();
    }
}
