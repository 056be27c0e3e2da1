package com.payorch.console.diagram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import com.payorch.statemachine.PaymentLifecycle;
import com.payorch.statemachine.RefundLifecycle;

/** The SVG is well-formed XML that says what the definition and the payment's history say, and nothing else. */
class LifecycleDiagramTest {

    private static final List<TakenStep> RETRIED_THEN_COMPLETED = List.of(
            new TakenStep(null, "PENDING"),
            new TakenStep("PENDING", "FAILED"),
            new TakenStep("FAILED", "PENDING"),
            new TakenStep("PENDING", "PROCESSING"),
            new TakenStep("PROCESSING", "COMPLETED"));

    @Test
    void isWellFormedSvgWithATitleAndADescriptionNamingTheCurrentState() throws Exception {
        Document svg = parse(LifecycleDiagram.ofPayments().svg("COMPLETED", RETRIED_THEN_COMPLETED));

        Element root = svg.getDocumentElement();
        assertThat(root.getLocalName()).isEqualTo("svg");
        assertThat(root.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
        assertThat(root.getAttribute("role")).isEqualTo("img");
        String[] labelledBy = root.getAttribute("aria-labelledby").split(" ");
        assertThat(svg.getElementsByTagNameNS("*", "title").item(0).getTextContent()).isEqualTo("Payment life cycle");
        assertThat(labelledBy).containsExactly("payment-lifecycle-title", "payment-lifecycle-desc");
        assertThat(elements(svg, "//*[@id='payment-lifecycle-title']")).hasSize(1);
        assertThat(text(svg, "//*[local-name()='desc'][@id='payment-lifecycle-desc']"))
                .isEqualTo("Current state: COMPLETED. Path taken: created → PENDING → FAILED → PENDING"
                        + " → PROCESSING → COMPLETED.");
    }

    @Test
    void exactlyTheCurrentStateIsHighlightedWithMoreThanColour() throws Exception {
        for (String status : List.of("PENDING", "PROCESSING", "COMPLETED", "FAILED")) {
            Document svg = parse(LifecycleDiagram.ofPayments().svg(status, List.of()));

            List<Element> current = elements(svg, "//*[@class='state current']");
            assertThat(current).as(status).hasSize(1);
            assertThat(current.get(0).getAttribute("data-state")).isEqualTo(status);
            assertThat(current.get(0).getTextContent()).isEqualTo(status + "(current)");
            assertThat(elements(svg, "//*[@class='state']")).as(status).hasSize(3);
        }
    }

    @Test
    void everyStateOfTheDefinitionIsDrawnOnce() throws Exception {
        Document svg = parse(LifecycleDiagram.ofPayments().svg("PENDING", List.of()));

        assertThat(elements(svg, "//*[contains(concat(' ', @class, ' '), ' state ')]"))
                .extracting(element -> element.getAttribute("data-state"))
                .containsExactly("PENDING", "PROCESSING", "FAILED", "COMPLETED");
        assertThat(elements(svg, "//*[local-name()='circle'][@class='initial-state']")).hasSize(1);
    }

    @Test
    void everyTransitionOfTheDefinitionAppearsOnceWithItsEvent() throws Exception {
        Document svg = parse(LifecycleDiagram.ofPayments().svg("PENDING", List.of()));

        List<Tuple> expected = new PaymentLifecycle().transitions().stream()
                .map(transition -> tuple(transition.source() == null ? "" : transition.source(), transition.target(),
                        transition.event()))
                .toList();
        assertThat(transitions(svg)).hasSize(6)
                .extracting(element -> element.getAttribute("data-from"), element -> element.getAttribute("data-to"),
                        element -> element.getAttribute("data-event"))
                .containsExactlyElementsOf(expected);
        assertThat(transitions(svg)).extracting(element -> element.getTextContent())
                .containsExactly("CREATE", "SUBMIT", "FAIL", "SUCCEED", "FAIL", "RETRY");
        assertThat(elements(svg, "//*[@class='transition initial']")).singleElement()
                .satisfies(initial -> assertThat(initial.hasAttribute("data-from")).isFalse());
    }

    @Test
    void theTransitionsOnThePathAreTakenAndNoOthers() throws Exception {
        Document svg = parse(LifecycleDiagram.ofPayments().svg("COMPLETED", RETRIED_THEN_COMPLETED));

        assertThat(elements(svg, "//*[contains(concat(' ', @class, ' '), ' taken ')]"))
                .extracting(element -> element.getAttribute("data-from"), element -> element.getAttribute("data-to"))
                .containsExactly(tuple("", "PENDING"), tuple("PENDING", "PROCESSING"), tuple("PENDING", "FAILED"),
                        tuple("PROCESSING", "COMPLETED"), tuple("FAILED", "PENDING"));
        assertThat(elements(svg, "//*[@class='transition'][@data-from='PROCESSING'][@data-to='FAILED']"))
                .hasSize(1);
        assertThat(elements(svg, "//*[contains(@class, 'taken')]/*[local-name()='path']"))
                .allSatisfy(path -> assertThat(path.getAttribute("marker-end"))
                        .isEqualTo("url(#payment-lifecycle-arrow-taken)"));
    }

    @Test
    void anEmptyPathTakesNothing() throws Exception {
        Document svg = parse(LifecycleDiagram.ofPayments().svg("PENDING", List.of()));

        assertThat(elements(svg, "//*[contains(@class, 'taken')]")).isEmpty();
        assertThat(text(svg, "//*[local-name()='desc']")).isEqualTo("Current state: PENDING.");
    }

    @Test
    void anUnknownStatusOrStepIsRefusedRatherThanDrawnWithoutAHighlight() {
        LifecycleDiagram payments = LifecycleDiagram.ofPayments();

        assertThatIllegalArgumentException().isThrownBy(() -> payments.svg("SETTLED", List.of()))
                .withMessageContaining("SETTLED");
        assertThatIllegalArgumentException().isThrownBy(() -> payments.svg("pending", List.of()));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> payments.svg("COMPLETED", List.of(new TakenStep("COMPLETED", "PENDING"))))
                .withMessageContaining("COMPLETED -> PENDING");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> payments.svg("PENDING", List.of(new TakenStep(null, "FAILED"))))
                .withMessageContaining("(created) -> FAILED");
    }

    @Test
    void theSameInputGivesTheSameBytes() {
        String first = LifecycleDiagram.ofPayments().svg("COMPLETED", RETRIED_THEN_COMPLETED);

        assertThat(LifecycleDiagram.ofPayments().svg("COMPLETED", new ArrayList<>(RETRIED_THEN_COMPLETED)))
                .isEqualTo(first);
        assertThat(first.getBytes(StandardCharsets.UTF_8))
                .isEqualTo(LifecycleDiagram.ofPayments().svg("COMPLETED", RETRIED_THEN_COMPLETED)
                        .getBytes(StandardCharsets.UTF_8));
        assertThat(LifecycleDiagram.ofPayments().svg("FAILED", RETRIED_THEN_COMPLETED.subList(0, 2)))
                .isNotEqualTo(first);
    }

    @Test
    void textIsEscaped() throws Exception {
        assertThat(LifecycleDiagram.escape("<a href=\"x\">Tom & Jerry's</a>"))
                .isEqualTo("&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
        Document parsed = parse("<t a=\"" + LifecycleDiagram.escape("\"<&'>") + "\">"
                + LifecycleDiagram.escape("]]><x/>&amp;") + "</t>");
        assertThat(parsed.getDocumentElement().getAttribute("a")).isEqualTo("\"<&'>");
        assertThat(parsed.getDocumentElement().getTextContent()).isEqualTo("]]><x/>&amp;");
    }

    @Test
    void theRefundLifeCycleIsDrawnFromItsDefinitionToo() throws Exception {
        Document svg = parse(LifecycleDiagram.ofRefunds().svg("SUCCEEDED",
                List.of(new TakenStep(null, "PENDING"), new TakenStep("PENDING", "SUCCEEDED"))));

        assertThat(transitions(svg)).hasSize(new RefundLifecycle().transitions().size());
        assertThat(elements(svg, "//*[@class='state current']")).singleElement()
                .satisfies(state -> assertThat(state.getAttribute("data-state")).isEqualTo("SUCCEEDED"));
        assertThat(svg.getDocumentElement().getAttribute("aria-labelledby"))
                .isEqualTo("refund-lifecycle-title refund-lifecycle-desc");
        assertThat(elements(svg, "//*[contains(@class, 'taken')]")).hasSize(2);
    }

    /** Not an assertion about looks: the examples a person opens (or renders to PNG) to look at the layout. */
    @Test
    void writesExamplesUnderTarget() throws IOException {
        Path directory = Path.of("target", "diagrams");
        Files.createDirectories(directory);
        Path completed = directory.resolve("payment-lifecycle-completed.svg");
        Files.writeString(completed, LifecycleDiagram.ofPayments().svg("COMPLETED", RETRIED_THEN_COMPLETED));
        Files.writeString(directory.resolve("payment-lifecycle-failed.svg"), LifecycleDiagram.ofPayments()
                .svg("FAILED", List.of(new TakenStep(null, "PENDING"), new TakenStep("PENDING", "PROCESSING"),
                        new TakenStep("PROCESSING", "FAILED"))));
        Files.writeString(directory.resolve("refund-lifecycle-pending.svg"),
                LifecycleDiagram.ofRefunds().svg("PENDING", List.of(new TakenStep(null, "PENDING"))));
        assertThat(completed).isNotEmptyFile();
    }

    private static List<Element> transitions(Document svg) throws Exception {
        return elements(svg, "//*[contains(concat(' ', @class, ' '), ' transition ')]");
    }

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    private static List<Element> elements(Document document, String xpath) throws Exception {
        NodeList nodes = (NodeList) XPathFactory.newInstance().newXPath().evaluate(xpath, document,
                XPathConstants.NODESET);
        List<Element> elements = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            elements.add((Element) nodes.item(i));
        }
        return elements;
    }

    private static String text(Document document, String xpath) throws Exception {
        return XPathFactory.newInstance().newXPath().evaluate(xpath, document);
    }
}
