package com.payorch.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console's life-cycle diagram is drawn from the state machine module's public description of its transitions
 * and from nothing else: no payments, no web, no Spring (the compiler already keeps it to public classes). Kept apart
 * from {@link ArchitectureTest} so the console's own rules can grow there.
 */
class DiagramDependenciesTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importProductionClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("com.payorch");
    }

    @Test
    void theDiagramDependsOnlyOnTheStateMachinesPublicApi() {
        classes().that().resideInAPackage("com.payorch.console.diagram..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("com.payorch.console.diagram..",
                        "com.payorch.statemachine", "java..", "org.jspecify..")
                .check(classes);
    }
}
