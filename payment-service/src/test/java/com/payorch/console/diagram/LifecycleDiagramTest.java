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
import java.util.Arrays;
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
import com.payorch.statemachine.PaymentStatus;
import com.payorch.statemachine.RefundLifecycle;

/** The SVG is well-formed XML that says what the definition and the payment's history say, and nothing else. */
class LifecycleDiagramTest {

    private static final List<TakenStep> RETRIED_THEN_COMPLETED = List.of(
            new TakenStep(null, "PENDING"),
            new TakenStep("PENDING", "FAILED"),
            new TakenStep("FAILED", "PENDING"),
            new TakenStep("PENDING", "PROCESSING"),
            new TakenStep("PROCESSING", "COMPLETED"));

    private static final List<TakenStep> AUTHORIZED_THEN_CAPTURED = List.of(
            new TakenStep(null, "PENDING"),
            new TakenStep("PENDING", "PROCESSING"),
            new TakenStep("PROCESSING", "AUTHORIZED"),
            new TakenStep("AUTHORIZED", "CAPTURING"),
            new TakenStep("CAPTURING", "AUTHORIZED"),
            new TakenStep("AUTHORIZED", "CAPTURING"),
            new TakenStep("CAPTURING", "COMPLETED"));

    private static final List<TakenStep> AUTHENTICATED_THEN_COMPLETED = List.of(
            new TakenStep(null, "PENDING"),
            new TakenStep("PENDING", "PROCESSING"),
            new TakenStep("PROCESSING", "REQUIRES_ACTION"),
            new TakenStep("REQUIRES_ACTION", "COMPLETED"));

    @Test
    void aPaymentTheCustomerAuthenticatedTakesTheCustomerActionTransitions() throws Exception {
        Document svg = parse(LifecycleDiagram.ofPayments().svg("COMPLETED", AUTHENTICATED_THEN_COMPLETED));

        assertThat(elements(svg, "//*[contains(concat(' ', @class, ' '), ' taken ')]"))
                .extracting(element -> element.getAttribute("data-from"), element -> element.getAttribute("data-to"),
                        element -> element.getAttribute("data-event"))
                .containsExactly(tuple("", "PENDING", "CREATE"), tuple("PENDING", "PROCESSING", "SUBMIT"),
                        tuple("PROCESSING", "REQUIRES_ACTION", "REQUIRE_ACTION"),
                        tuple("REQUIRES_ACTION", "COMPLETED", "SUCCEED"));
        assertThat(text(svg, "//*[local-name()='desc']")).isEqualTo("Current state: COMPLETED. Path taken: created"
                + " → PENDING → PROCESSING → REQUIRES_ACTION → COMPLETED.");
    }

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
        for (PaymentStatus each : PaymentStatus.values()) {
            String status = each.name();
            Document svg = parse(LifecycleDiagram.ofPayments().svg(status, List.of()));

            List<Element> current = elements(svg, "//*[@class='state current']");
            assertThat(current).as(status).hasSize(1);
            assertThat(current.get(0).getAttribute("data-state")).isEqualTo(status);
            assertThat(current.get(0).getTextContent()).isEqualTo(status + "(current)");
            assertThat(elements(svg, "//*[@class='state']")).as(status).hasSize(PaymentStatus.values().length - 1);
        }
    }

    @Test
    void everyStateOfTheDefinitionIsDrawnOnce() throws Exception {
        Document svg = parse(LifecycleDiagram.ofPayments().svg("PENDING", List.of()));

        assertThat(elements(svg, "//*[contains(concat(' ', @class, ' '), ' state ')]"))
                .extracting(element -> element.getAttribute("data-state"))
                .containsExactly("PENDING", "PROCESSING", "FAILED", "CANCELLED", "REQUIRES_ACTION", "COMPLETED",
                        "AUTHORIZED", "CAPTURING")
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(PaymentStatus.values()).map(Enum::name).toList());
        assertThat(elements(svg, "//*[local-name()='circle'][@class='initial-state']")).hasSize(1);
    }

    @Test
    void everyTransitionOfTheDefinitionAppearsOnceWithItsEvent() throws Exception {
        Document svg = parse(LifecycleDiagram.ofPayments().svg("PENDING", List.of()));

        List<Tuple> expected = new PaymentLifecycle().transitions().stream()
                .map(transition -> tuple(transition.source() == null ? "" : transition.source(), transition.target(),
                        transition.event()))
                .toList();
        assertThat(transitions(svg)).hasSize(20)
                .extracting(element -> element.getAttribute("data-from"), element -> element.getAttribute("data-to"),
                        element -> element.getAttribute("data-event"))
                .containsExactlyElementsOf(expected);
        assertThat(transitions(svg)).extracting(element -> element.getTextContent())
                .containsExactly("CREATE", "SUBMIT", "FAIL", "SUCCEED", "FAIL", "RETRY", "AUTHORIZE", "CAPTURE",
                        "SUCCEED", "CAPTURE_FAIL", "CANCEL", "CANCEL", "CANCEL", "REQUIRE_ACTION", "REQUIRE_ACTION",
                        "SUBMIT", "AUTHORIZE", "SUCCEED", "FAIL", "CANCEL");
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
    void aHoldCapturedAfterARefusedCaptureTakesTheHoldsTransitions() throws Exception {
        Document svg = parse(LifecycleDiagram.ofPayments().svg("COMPLETED", AUTHORIZED_THEN_CAPTURED));

        assertThat(elements(svg, "//*[contains(concat(' ', @class, ' '), ' taken ')]"))
                .extracting(element -> element.getAttribute("data-from"), element -> element.getAttribute("data-to"),
                        element -> element.getAttribute("data-event"))
                .containsExactly(tuple("", "PENDING", "CREATE"), tuple("PENDING", "PROCESSING", "SUBMIT"),
                        tuple("PROCESSING", "AUTHORIZED", "AUTHORIZE"), tuple("AUTHORIZED", "CAPTURING", "CAPTURE"),
                        tuple("CAPTURING", "COMPLETED", "SUCCEED"), tuple("CAPTURING", "AUTHORIZED", "CAPTURE_FAIL"));
        assertThat(elements(svg, "//*[@class='transition'][@data-from='PROCESSING'][@data-to='COMPLETED']"))
                .hasSize(1);
        assertThat(text(svg, "//*[local-name()='desc']")).isEqualTo("Current state: COMPLETED. Path taken: created"
                + " → PENDING → PROCESSING → AUTHORIZED → CAPTURING → AUTHORIZED → CAPTURING → COMPLETED.");
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

    /**
     * Readable means nothing drawn on top of something else: no two states touch, no transition runs through a state
     * that is neither of its ends, no event name lies on a state or on another event name, and everything is inside
     * the picture, above the legend. Measured here on the SVG itself, independently of the layout's own search.
     */
    @Test
    void nothingIsDrawnOnTopOfAnythingElse() throws Exception {
        List<String> pictures = new ArrayList<>();
        for (PaymentStatus status : PaymentStatus.values()) {
            pictures.add(LifecycleDiagram.ofPayments().svg(status.name(), RETRIED_THEN_COMPLETED.subList(0, 1)));
        }
        pictures.add(LifecycleDiagram.ofPayments().svg("COMPLETED", AUTHORIZED_THEN_CAPTURED));
        pictures.add(LifecycleDiagram.ofPayments().svg("COMPLETED", AUTHENTICATED_THEN_COMPLETED));
        pictures.add(LifecycleDiagram.ofRefunds().svg("PENDING", List.of()));
        for (String picture : pictures) {
            Document svg = parse(picture);
            Area page = new Area(0, 0, Double.parseDouble(svg.getDocumentElement().getAttribute("width")),
                    Double.parseDouble(svg.getDocumentElement().getAttribute("height")));
            Area legend = textArea(elements(svg, "//*[@class='legend']").get(0));
            List<Element> states = elements(svg, "//*[contains(concat(' ', @class, ' '), ' state ')]");
            List<Element> edges = transitions(svg);
            for (Element state : states) {
                Area box = rectArea(state);
                assertThat(page.contains(box)).as(state.getAttribute("data-state")).isTrue();
                for (Element other : states) {
                    if (other != state) {
                        assertThat(box.grown(16).overlaps(rectArea(other)))
                                .as("%s too close to %s", state.getAttribute("data-state"),
                                        other.getAttribute("data-state"))
                                .isFalse();
                    }
                }
            }
            for (Element edge : edges) {
                String name = edge.getAttribute("data-from") + " -" + edge.getAttribute("data-event") + "-> "
                        + edge.getAttribute("data-to");
                List<double[]> points = pathPoints(child(edge, "path").getAttribute("d"));
                Area label = textArea(child(edge, "text"));
                assertThat(page.contains(label)).as("label of %s inside the picture", name).isTrue();
                assertThat(label.overlaps(legend)).as("label of %s on the legend", name).isFalse();
                for (Element state : states) {
                    String stateName = state.getAttribute("data-state");
                    Area box = rectArea(state);
                    assertThat(label.overlaps(box)).as("label of %s on %s", name, stateName).isFalse();
                    if (!stateName.equals(edge.getAttribute("data-from"))
                            && !stateName.equals(edge.getAttribute("data-to"))) {
                        assertThat(points).as("%s through %s", name, stateName)
                                .noneMatch(point -> box.grown(-1).contains(point[0], point[1]));
                    }
                }
                for (Element other : edges) {
                    if (other != edge) {
                        assertThat(label.overlaps(textArea(child(other, "text"))))
                                .as("label of %s on the label of %s -> %s", name, other.getAttribute("data-from"),
                                        other.getAttribute("data-to"))
                                .isFalse();
                    }
                }
            }
        }
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
        Files.writeString(directory.resolve("payment-lifecycle-captured.svg"),
                LifecycleDiagram.ofPayments().svg("COMPLETED", AUTHORIZED_THEN_CAPTURED));
        Files.writeString(directory.resolve("payment-lifecycle-cancelled.svg"), LifecycleDiagram.ofPayments()
                .svg("CANCELLED", List.of(new TakenStep(null, "PENDING"), new TakenStep("PENDING", "PROCESSING"),
                        new TakenStep("PROCESSING", "AUTHORIZED"), new TakenStep("AUTHORIZED", "CANCELLED"))));
        Files.writeString(directory.resolve("refund-lifecycle-pending.svg"),
                LifecycleDiagram.ofRefunds().svg("PENDING", List.of(new TakenStep(null, "PENDING"))));
        assertThat(completed).isNotEmptyFile();
    }

    private record Area(double left, double top, double right, double bottom) {

        boolean overlaps(Area other) {
            return left < other.right && other.left < right && top < other.bottom && other.top < bottom;
        }

        boolean contains(Area other) {
            return other.left >= left && other.right <= right && other.top >= top && other.bottom <= bottom;
        }

        boolean contains(double x, double y) {
            return x > left && x < right && y > top && y < bottom;
        }

        Area grown(double by) {
            return new Area(left - by, top - by, right + by, bottom + by);
        }
    }

    private static Element child(Element parent, String localName) {
        return (Element) parent.getElementsByTagNameNS("*", localName).item(0);
    }

    private static Area rectArea(Element state) {
        Element rect = child(state, "rect");
        double x = Double.parseDouble(rect.getAttribute("x"));
        double y = Double.parseDouble(rect.getAttribute("y"));
        return new Area(x, y, x + Double.parseDouble(rect.getAttribute("width")),
                y + Double.parseDouble(rect.getAttribute("height")));
    }

    /** A 12 px label at a generous 8 px per character, from its baseline: 11 px above it, 4 below. */
    private static Area textArea(Element text) {
        double width = text.getTextContent().length() * 8.0;
        double x = Double.parseDouble(text.getAttribute("x"));
        double y = Double.parseDouble(text.getAttribute("y"));
        double left = switch (text.getAttribute("text-anchor")) {
            case "middle" -> x - width / 2;
            case "end" -> x - width;
            default -> x;
        };
        return new Area(left, y - 11, left + width, y + 4);
    }

    /** The points of an {@code M … L …} line or an {@code M … C …} cubic curve, every few pixels. */
    private static List<double[]> pathPoints(String d) {
        String[] token = d.trim().split("\\s+");
        double[] numbers = Arrays.stream(token).filter(t -> !t.matches("[A-Za-z]"))
                .mapToDouble(Double::parseDouble).toArray();
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i <= 200; i++) {
            double t = i / 200.0;
            double u = 1 - t;
            if (token[3].equals("L")) {
                points.add(new double[] {numbers[0] + t * (numbers[2] - numbers[0]),
                        numbers[1] + t * (numbers[3] - numbers[1])});
            } else {
                assertThat(token[3]).isEqualTo("C");
                points.add(new double[] {
                        u * u * u * numbers[0] + 3 * u * u * t * numbers[2] + 3 * u * t * t * numbers[4]
                                + t * t * t * numbers[6],
                        u * u * u * numbers[1] + 3 * u * u * t * numbers[3] + 3 * u * t * t * numbers[5]
                                + t * t * t * numbers[7]});
            }
        }
        return points;
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
