package com.payorch.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.payorch.gateway.Connector;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The connector plug-in rules: each connector lives in its own folder under {@code com.payorch.connectors}, uses
 * its PSP's SDK there and nowhere else, and the rest of the service reaches it only through the gateway port's
 * {@link Connector} bean (so adding a connector is its folder, its fake, its tests, its docs section and the pom).
 */
class ConnectorArchitectureTest {

    /** Each connector folder and the SDK package only it may use (the sandbox has none). */
    private static final List<String> FOLDERS = List.of("sandbox", "stripe", "adyen", "braintree");

    private static JavaClasses classes;

    @BeforeAll
    static void importProductionClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("com.payorch");
    }

    @ParameterizedTest(name = "{0} only in connectors.{1}")
    @CsvSource({"com.stripe.., stripe", "com.adyen.., adyen", "com.braintreegateway.., braintree"})
    void eachPspSdkIsUsedOnlyInItsConnectorsFolder(String sdk, String folder) {
        noClasses().that().resideOutsideOfPackage("com.payorch.connectors." + folder + "..")
                .should().dependOnClassesThat().resideInAPackage(sdk)
                .allowEmptyShould(true)
                .check(classes);
    }

    @ParameterizedTest(name = "nothing outside connectors.{0} names its classes")
    @ValueSource(strings = {"sandbox", "stripe", "adyen", "braintree"})
    void noClassOutsideAConnectorsFolderNamesItsClasses(String folder) {
        noClasses().that().resideOutsideOfPackage("com.payorch.connectors." + folder + "..")
                // The one exception: the start-up check of development defaults names the sandbox's published
                // development webhook secret, which is a development default like the demo API key.
                .and().doNotHaveFullyQualifiedName("com.payorch.security.DevelopmentDefaults")
                .should().dependOnClassesThat().resideInAPackage("com.payorch.connectors." + folder + "..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void noConnectorFolderNamesAnother() {
        for (String folder : FOLDERS) {
            for (String other : FOLDERS) {
                if (!folder.equals(other)) {
                    noClasses().that().resideInAPackage("com.payorch.connectors." + folder + "..")
                            .should().dependOnClassesThat().resideInAPackage("com.payorch.connectors." + other + "..")
                            .allowEmptyShould(true)
                            .check(classes);
                }
            }
        }
    }

    @Test
    void theGatewayPortKnowsNoConnectorNoPaymentAndNoWebLayer() {
        noClasses().that().resideInAPackage("com.payorch.gateway..")
                .should().dependOnClassesThat().resideInAnyPackage("com.payorch.connectors..",
                        "com.payorch.payments..", "com.payorch.webhooks..", "com.payorch.web..")
                .check(classes);
    }

    @Test
    void theRouterKnowsTheConnectorsOnlyAsBeansOfThePort() {
        noClasses().that().resideInAPackage("com.payorch.connectors")
                .should().dependOnClassesThat().resideInAnyPackage("com.payorch.connectors.*..")
                .check(classes);
    }

    @Test
    void connectorsDoNotDependOnTheWebLayer() {
        noClasses().that().resideInAPackage("com.payorch.connectors..").and().resideOutsideOfPackage("..api..")
                .should().dependOnClassesThat().resideInAnyPackage("com.payorch.web..", "..api..")
                .check(classes);
    }

    @Test
    void everyConnectorIsOneBeanOfThePortInItsFolder() {
        classes().that().implement(Connector.class)
                .should().resideInAPackage("com.payorch.connectors.*")
                .andShould().haveSimpleNameEndingWith("Connector")
                .check(classes);
    }
}
