package com.payorch.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RestController;

/**
 * The module map of docs/architecture.md, enforced. Each package is a slice; HTTP adapters of a feature live in its
 * {@code api} sub-package, so the feature itself never depends on the web layer, and the web layer may map the
 * feature's exceptions to problem responses without a cycle.
 */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importProductionClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("com.payorch");
    }

    /**
     * Each package is a slice, except that a feature's {@code internal} package (its stores) is part of the feature:
     * the feature's services use it and it reads and writes the feature's types, and no other package may use it
     * ({@link #noOtherModuleUsesAFeaturesInternalPackage}).
     */
    @Test
    void packagesHaveNoCycles() {
        slices().assignedFrom(PACKAGES_WITH_THEIR_INTERNALS).should().beFreeOfCycles().check(classes);
    }

    private static final SliceAssignment PACKAGES_WITH_THEIR_INTERNALS = new SliceAssignment() {
        private final PackageMatcher packages = PackageMatcher.of("com.payorch.(**)");

        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            return packages.match(javaClass.getPackageName())
                    .map(match -> SliceIdentifier.of(match.getGroup(1).replaceFirst("\\.internal(\\..*)?$", "")))
                    .orElse(SliceIdentifier.ignore());
        }

        @Override
        public String getDescription() {
            return "packages of com.payorch, each with its internal package";
        }
    };

    @Test
    void springStatemachineStaysInsideStatemachineConfig() {
        noClasses().that().resideOutsideOfPackage("com.payorch.statemachine..")
                .should().dependOnClassesThat().resideInAPackage("org.springframework.statemachine..")
                .check(classes);
    }

    @Test
    void theDomainDoesNotDependOnTheWebLayer() {
        noClasses().that().resideInAnyPackage("com.payorch.payments", "com.payorch.idempotency",
                        "com.payorch.gateway", "com.payorch.connectors.sandbox", "com.payorch.webhooks",
                        "com.payorch.bookings", "com.payorch.events", "com.payorch.recovery", "com.payorch.outbox",
                        "com.payorch.confirmations", "com.payorch.signing", "com.payorch.support",
                        "com.payorch.connectors", "com.payorch.merchantwebhooks", "com.payorch.disputes")
                .should().dependOnClassesThat().resideInAnyPackage("com.payorch.web..", "..api..")
                .check(classes);
    }

    @Test
    void theGatewayPortKnowsNoConnectorAndNoPayment() {
        noClasses().that().resideInAPackage("com.payorch.gateway")
                .should().dependOnClassesThat().resideInAnyPackage("com.payorch.connectors.sandbox..",
                        "com.payorch.payments..", "com.payorch.webhooks..", "com.payorch.web..")
                .check(classes);
    }

    @Test
    void paymentsNameNoConnectorAndUseNoPspSdk() {
        noClasses().that().resideInAnyPackage("com.payorch.payments..", "com.payorch.refunds..",
                        "com.payorch.recovery..", "com.payorch.disputes..")
                .should().dependOnClassesThat().resideInAnyPackage("com.payorch.connectors..",
                        "com.payorch.connectors.sandbox..", "com.stripe..", "com.adyen..", "com.braintreegateway..")
                .check(classes);
    }

    @Test
    void controllersLiveInApiPackages() {
        classes().that().areAnnotatedWith(RestController.class)
                .and().resideOutsideOfPackage("com.payorch.benchmark")
                .should().resideInAPackage("..api")
                .check(classes);
    }

    @Test
    void pageControllersLiveInApiPackagesToo() {
        classes().that().areAnnotatedWith(Controller.class)
                .should().resideInAPackage("..api")
                .check(classes);
    }

    @Test
    void theConsoleReadsAndActsThroughTheFeaturesNeverTheWebLayer() {
        noClasses().that().resideInAPackage("com.payorch.console")
                .should().dependOnClassesThat().resideInAnyPackage("com.payorch.web..", "..api..",
                        "com.payorch.security..")
                .check(classes);
    }

    @Test
    void noFeatureDependsOnTheConsole() {
        noClasses().that().resideOutsideOfPackages("com.payorch.console..")
                .should().dependOnClassesThat().resideInAPackage("com.payorch.console..")
                .check(classes);
    }

    @Test
    void onlyTheWebLayerBuildsProblemResponses() {
        noClasses().that().resideOutsideOfPackages("com.payorch.web..", "..api..", "com.payorch.security..")
                .should().dependOnClassesThat().haveSimpleName("ApiProblem")
                .orShould().dependOnClassesThat().haveSimpleName("ProblemCode")
                .check(classes);
    }

    /**
     * A feature's stores are its own: other modules use its published services ({@code PaymentQueries},
     * {@code RefundQueries}, {@code DisputeQueries}, ...).
     */
    @Test
    void noOtherModuleUsesAFeaturesInternalPackage() {
        for (String feature : List.of("com.payorch.payments", "com.payorch.refunds", "com.payorch.disputes")) {
            noClasses().that().resideOutsideOfPackage(feature + "..")
                    .should().dependOnClassesThat().resideInAPackage(feature + ".internal..")
                    .because("other modules use the published services of " + feature + ", never its stores")
                    .check(classes);
        }
    }
}
