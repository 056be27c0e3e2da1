package com.payorch.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.support.Refusal;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every refusal of the domain names a problem code the web layer knows, so none of them can reach a client as a 500.
 * The refusals are found on the class path and built through each of their constructors, with every value of each
 * enum parameter (a refusal may answer another code by its state, as {@code BookingTaken} does).
 */
class RefusalCodesTest {

    @Test
    void everyRefusalNamesAProblemCodeTheWebLayerKnows() throws Exception {
        Map<String, TreeSet<String>> codesByRefusal = new TreeMap<>();
        for (Class<? extends Refusal> refusal : concreteRefusals()) {
            TreeSet<String> codes = new TreeSet<>();
            for (Constructor<?> constructor : refusal.getDeclaredConstructors()) {
                constructor.setAccessible(true);
                for (Object[] arguments : argumentsFor(constructor.getParameterTypes())) {
                    codes.add(((Refusal) newInstance(constructor, arguments)).code());
                }
            }
            codesByRefusal.put(refusal.getName(), codes);
        }

        assertThat(codesByRefusal).as("refusals found on the class path").hasSizeGreaterThanOrEqualTo(17)
                .containsEntry("com.payorch.payments.BookingTaken",
                        new TreeSet<>(List.of("booking_already_paid", "booking_payment_in_progress")));
        codesByRefusal.forEach((refusal, codes) -> assertThat(codes).as(refusal + "'s codes").isNotEmpty()
                .allSatisfy(code -> assertThat(ProblemCode.byCode(code)).as(refusal + " answers " + code).isPresent()));
    }

    @Test
    void everyProblemCodeIsFoundByItsCode() {
        for (ProblemCode code : ProblemCode.values()) {
            assertThat(ProblemCode.byCode(code.code())).contains(code);
        }
        assertThat(ProblemCode.byCode("no_such_code")).isEmpty();
    }

    private static List<Class<? extends Refusal>> concreteRefusals() {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("com.payorch")
                .stream()
                .filter(javaClass -> javaClass.isAssignableTo(Refusal.class))
                .filter(javaClass -> !javaClass.getModifiers().contains(JavaModifier.ABSTRACT))
                .<Class<? extends Refusal>>map(javaClass -> javaClass.reflect().asSubclass(Refusal.class))
                .toList();
    }

    /** Every combination of sample arguments: each enum parameter takes all its values, any other one sample. */
    private static List<Object[]> argumentsFor(Class<?>[] parameterTypes) {
        List<Object[]> combinations = new ArrayList<>();
        combinations.add(new Object[parameterTypes.length]);
        for (int i = 0; i < parameterTypes.length; i++) {
            List<Object[]> extended = new ArrayList<>();
            for (Object[] partial : combinations) {
                for (Object value : samplesOf(parameterTypes[i])) {
                    Object[] next = partial.clone();
                    next[i] = value;
                    extended.add(next);
                }
            }
            combinations = extended;
        }
        return combinations;
    }

    private static List<?> samplesOf(Class<?> type) {
        if (type.isEnum()) {
            return List.of(type.getEnumConstants());
        }
        if (type == String.class) {
            return List.of("x");
        }
        if (type == int.class || type == Integer.class) {
            return List.of(1);
        }
        if (type == long.class || type == Long.class) {
            return List.of(1L);
        }
        if (type == List.class) {
            return List.of(List.of(1, 2));
        }
        throw new IllegalStateException("No sample argument of type " + type.getName()
                + ": teach RefusalCodesTest to build one");
    }

    private static Object newInstance(Constructor<?> constructor, Object[] arguments) throws Exception {
        try {
            return constructor.newInstance(arguments);
        } catch (InvocationTargetException e) {
            throw new AssertionError("could not build " + constructor, e.getCause());
        }
    }
}
