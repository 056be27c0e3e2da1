package com.payorch.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.chaos.CampaignFacts;
import com.payorch.chaos.CampaignFacts.PspCharge;
import com.payorch.chaos.CampaignFacts.PspDispute;
import com.payorch.chaos.check.Checker.InvariantResult;
import com.payorch.chaos.check.Operations.Kind;
import com.payorch.chaos.check.Operations.Operation;
import com.payorch.chaos.history.HistoryEntry;
import com.payorch.fakes.FakeAdyen;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The checker's parts that need no service: pairing the history, telling charges' attempts, the Adyen ledger. */
class CheckerPartsIT {

    private static HistoryEntry entry(HistoryEntry.Kind kind, String process, String method, String path,
                                      Map<String, String> headers, Integer status, String response) {
        return new HistoryEntry(0, 0, kind, process, "op", "i1", method, path, headers, null, status, null, response,
                null);
    }

    @Test
    void eachAnswerIsPairedWithItsProcesssInvokeAndKindsComeFromMethodAndPath() {
        Map<String, String> quoted = Map.of("idempotency-key", "\"abc\"");
        List<Operation> operations = Operations.of(List.of(
                entry(HistoryEntry.Kind.INVOKE, "c1", "POST", "/v1/payments", quoted, null, null),
                entry(HistoryEntry.Kind.INVOKE, "c2", "POST", "/v1/payments/pay_1/retry", Map.of(), null, null),
                entry(HistoryEntry.Kind.NEMESIS, "nemesis", null, null, null, null, null),
                // an answer that does not repeat its request: the INVOKE's is used
                entry(HistoryEntry.Kind.LOST, "c2", null, null, null, null, null),
                entry(HistoryEntry.Kind.ANSWERED, "c1", "POST", "/v1/payments", quoted, 201, "{\"id\":\"pay_2\"}"),
                entry(HistoryEntry.Kind.INVOKE, "c1", "POST", "/v1/payments/pay_2/refunds", Map.of(), null, null),
                entry(HistoryEntry.Kind.ANSWERED, "c1", "POST", "/v1/payments/pay_2/refunds", Map.of(), 409, "{}"),
                entry(HistoryEntry.Kind.INVOKE, "c3", "GET", "/v1/payments/pay_2", Map.of(), null, null),
                entry(HistoryEntry.Kind.ANSWERED, "c3", "GET", "/v1/payments/pay_2", Map.of(), 200, "{}")));

        assertThat(operations).extracting(Operation::kind)
                .containsExactly(Kind.RETRY, Kind.CREATE, Kind.REFUND, Kind.OTHER);
        assertThat(operations).extracting(Operation::acknowledged).containsExactly(false, true, false, true);
        assertThat(operations.get(0).paymentIdInPath()).isEqualTo("pay_1");
        assertThat(operations.get(0).answer().kind()).isEqualTo(HistoryEntry.Kind.LOST);
        assertThat(operations.get(1).idempotencyKey()).isEqualTo("abc");
        assertThat(operations.get(1).responseJson().path("id").asText()).isEqualTo("pay_2");
        assertThat(operations.get(2).paymentIdInPath()).isEqualTo("pay_2");
    }

    @Test
    void aPspChargeIsTiedToItsAttemptByKeyElseReferenceElseItsRecordedReference() {
        Snapshot db = new Snapshot(List.of(), List.of(new Snapshot.Attempt("pay_c", 4, "adyen", "PSPC", "SUCCEEDED",
                false)), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        CampaignFacts facts = facts(List.of(
                new PspCharge("stripe", "pi_a", "pay_a-attempt-3", "pay_a", 100, "usd", true, List.of()),
                new PspCharge("stripe", "pi_b", null, "pay_b:2", 100, "USD", true, List.of()),
                new PspCharge("adyen", "PSPC", "something-else", "pay_c", 100, "EUR", false, List.of()),
                new PspCharge("adyen", "PSPD", null, null, 100, "EUR", false, List.of())));

        List<Charges.Charge> charges = Charges.of(facts, db).all();

        assertThat(charges).extracting(c -> c.paymentId() + "#" + c.attempt())
                .containsExactly("pay_a#3", "pay_b#2", "pay_c#4", "null#null");
        assertThat(charges.get(0).currency()).isEqualTo("USD");
        assertThat(Charges.failed("failed")).isTrue();
        assertThat(Charges.failed("refused")).isTrue();
        assertThat(Charges.failed("received")).isFalse();
        assertThat(Charges.failed("succeeded")).isFalse();
    }

    @Test
    void theAdyenLedgerNamesTheAttemptsKeyTheOutcomeAndTheRefunds() throws Exception {
        try (FakeAdyen adyen = new FakeAdyen().acceptKey("adyen-key")) {
            HttpClient http = HttpClient.newHttpClient();
            String authorised = post(http, adyen.checkoutUrl() + "/payments", "pay_x-attempt-2", """
                    {"amount": {"value": 700, "currency": "EUR"}, "reference": "pay_x", "merchantAccount": "M",
                     "paymentMethod": {"type": "scheme", "storedPaymentMethodId": "pm_card_visa"},
                     "metadata": {"attempt": "2"}}""");
            String received = post(http, adyen.checkoutUrl() + "/payments", "pay_y", """
                    {"amount": {"value": 300, "currency": "EUR"}, "reference": "pay_y", "merchantAccount": "M",
                     "paymentMethod": {"type": "scheme", "storedPaymentMethodId": "pm_card_processing"},
                     "metadata": {"attempt": "1"}}""");
            String refund = post(http, adyen.checkoutUrl() + "/payments/" + authorised + "/refunds", "re_1", """
                    {"amount": {"value": 200, "currency": "EUR"}, "reference": "re_1", "merchantAccount": "M"}""");

            List<PspCharge> ledger = Ledgers.adyen(adyen, Set.of(), Set.of(refund));

            assertThat(ledger).extracting(PspCharge::pspReference).containsExactly(authorised, received);
            assertThat(ledger.get(0).idempotencyKey()).isEqualTo("pay_x-attempt-2");
            assertThat(ledger.get(0).reference()).isEqualTo("pay_x");
            assertThat(ledger.get(0).succeeded()).isTrue();
            assertThat(ledger.get(0).refunds()).singleElement()
                    .satisfies(r -> assertThat(Charges.failed(r.status())).isTrue())
                    .satisfies(r -> assertThat(r.amount()).isEqualTo(200));
            assertThat(ledger.get(1).succeeded()).isFalse();
            assertThat(Ledgers.adyen(adyen, Set.of(received), Set.of()).get(1).succeeded()).isTrue();
        }
    }

    private static String post(HttpClient http, String url, String key, String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
                .header("X-API-Key", "adyen-key").header("Idempotency-Key", key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
        return new JsonMapper().readTree(response.body()).path("pspReference").asText();
    }

    private static CampaignFacts facts(List<PspCharge> charges) {
        return new FrozenFacts(new CampaignFacts.Database("jdbc:none", "", "", "none"), List.of(), charges,
                List.of(), List.of(), Optional.empty());
    }

    /**
     * Seed 30465486732991: a hold's cancel recorded while PROCESSING (a version without a transition), its attempt
     * FAILED, then the merchant's retry, which starts a new hold and clears the cancel. The payment ends with no cancel
     * requested, yet every event after the cancel carries one version more than its transition's ordinal.
     */
    @Test
    void aCancelRecordedBeforeARetryShiftsTheEventsAfterItEvenWhenTheRetryClearedIt() {
        String id = "pay_r";
        List<Snapshot.Transition> transitions = List.of(
                new Snapshot.Transition(1, id, null, "PENDING", "CREATE", "api", null, 1),
                new Snapshot.Transition(2, id, "PENDING", "PROCESSING", "SUBMIT", "api", null, 2),
                new Snapshot.Transition(3, id, "PROCESSING", "FAILED", "FAIL", "webhook", null, 3),
                new Snapshot.Transition(4, id, "FAILED", "PENDING", "RETRY", "api", null, 4),
                new Snapshot.Transition(5, id, "PENDING", "PROCESSING", "SUBMIT", "api", null, 5),
                new Snapshot.Transition(6, id, "PROCESSING", "FAILED", "FAIL", "webhook", null, 6));
        Snapshot.Payment payment = new Snapshot.Payment(id, "m", "bk", 100, "GBP", "FAILED", 2, "sandbox", null, 0, 0,
                7, "manual", 0, false, false, "card_declined", null);
        List<Snapshot.Event> events = new ArrayList<>(List.of(event(1, id, "payment.created", 1),
                event(2, id, "payment.processing", 2), event(3, id, "payment.failed", 4),
                event(4, id, "payment.processing", 6), event(5, id, "payment.failed", 7)));

        assertThat(oneEventPerTransition(payment, transitions, events).passed()).isTrue();

        events.remove(3);
        InvariantResult missing = oneEventPerTransition(payment, transitions, events);
        assertThat(missing.passed()).isFalse();
        assertThat(missing.offendingKeys()).containsExactly(id);
    }

    /**
     * Issue 26: an acknowledged capture needs its CAPTURE transition under the request's key, an acknowledged cancel
     * a recorded cancel (or CANCELLED), and both the key's finished row; what is missing is named.
     */
    @Test
    void anAcknowledgedCaptureOrCancelWithoutItsEffectFails() {
        Map<String, String> captureKey = Map.of("Idempotency-Key", "cap-1");
        Map<String, String> cancelKey = Map.of("Idempotency-Key", "can-1");
        List<HistoryEntry> history = List.of(
                entry(HistoryEntry.Kind.INVOKE, "c1", "POST", "/v1/payments/pay_h/capture", captureKey, null, null),
                entry(HistoryEntry.Kind.ANSWERED, "c1", "POST", "/v1/payments/pay_h/capture", captureKey, 200,
                        "{\"id\":\"pay_h\"}"),
                entry(HistoryEntry.Kind.INVOKE, "c2", "POST", "/v1/payments/pay_k/cancel", cancelKey, null, null),
                entry(HistoryEntry.Kind.ANSWERED, "c2", "POST", "/v1/payments/pay_k/cancel", cancelKey, 200,
                        "{\"id\":\"pay_k\"}"));
        List<Operation> operations = Operations.of(history);
        assertThat(operations).extracting(Operation::kind).containsExactly(Kind.CAPTURE, Kind.CANCEL);

        Snapshot.Payment authorised = hold("pay_h", "AUTHORIZED", false);
        Snapshot.Payment notCancelled = hold("pay_k", "AUTHORIZED", false);
        InvariantResult nothingRecorded = acknowledgedEffects(operations, List.of(authorised, notCancelled),
                List.of(), List.of());
        assertThat(nothingRecorded.passed()).isFalse();
        assertThat(nothingRecorded.offendingKeys()).contains("cap-1", "pay_h", "can-1", "pay_k");
        assertThat(nothingRecorded.detail()).contains("1 captures, 1 cancels")
                .contains("no CAPTURE transition has source_id cap-1");

        // the capture and the cancel recorded, but their keys never finished: still not acknowledged effects
        List<Snapshot.Transition> captured = List.of(
                new Snapshot.Transition(1, "pay_h", "AUTHORIZED", "CAPTURING", "CAPTURE", "api", "cap-1", 1));
        InvariantResult keysUnfinished = acknowledgedEffects(operations,
                List.of(hold("pay_h", "CAPTURING", false), hold("pay_k", "AUTHORIZED", true)), captured,
                List.of(new Snapshot.IdempotencyKey("m", "can-1", "POST", "/v1/payments/pay_k/cancel", "STARTED",
                        "pay_k", null, null)));
        assertThat(keysUnfinished.passed()).isFalse();
        assertThat(keysUnfinished.detail()).contains("2 problems, first: no idempotency_keys row for merchant m"
                + " and key cap-1");
    }

    private static Snapshot.Payment hold(String id, String status, boolean cancelRequested) {
        return new Snapshot.Payment(id, "m", "bk_" + id, 100, "GBP", status, 1, "sandbox", null, 0, 0, 3, "manual",
                0, true, cancelRequested, null, null);
    }

    private static InvariantResult acknowledgedEffects(List<Operation> operations, List<Snapshot.Payment> payments,
                                                       List<Snapshot.Transition> transitions,
                                                       List<Snapshot.IdempotencyKey> keys) {
        Snapshot db = new Snapshot(payments, List.of(), transitions, List.of(), List.of(), List.of(), keys,
                List.of(), List.of(), List.of());
        return new AcknowledgedEffects().check(new CheckContext(null, List.of(), operations, db, null, List.of()));
    }

    private static Snapshot.Event event(long seq, String paymentId, String type, long version) {
        return new Snapshot.Event(seq, "evt_" + seq, "m", type, paymentId, "bk", "{\"version\": " + version + "}");
    }

    private static InvariantResult oneEventPerTransition(Snapshot.Payment payment,
                                                         List<Snapshot.Transition> transitions,
                                                         List<Snapshot.Event> events) {
        Snapshot db = new Snapshot(List.of(payment), List.of(), transitions, events, List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of());
        return new OneEventPerTransition().check(new CheckContext(null, List.of(), List.of(), db, null, List.of()));
    }

    // ---- invariant 13: disputes

    private static final String DISPUTED = "pay_d";

    /** A payment of 10000 captured: a refund of 3000, a dispute of 6000 opened, then a refund of 1000 (exactly full). */
    private static List<Snapshot.Event> disputeHistory() {
        return new ArrayList<>(List.of(
                new Snapshot.Event(1, "evt_1", "m", "refund.created", DISPUTED, "bk",
                        "{\"refundId\": \"re_1\", \"amount\": 3000}"),
                new Snapshot.Event(2, "evt_2", "m", "dispute.opened", DISPUTED, "bk",
                        "{\"id\": \"dp_1\", \"amount\": 6000, \"status\": \"OPEN\"}"),
                new Snapshot.Event(3, "evt_3", "m", "refund.created", DISPUTED, "bk",
                        "{\"refundId\": \"re_2\", \"amount\": 1000}")));
    }

    private static InvariantResult disputes(List<Snapshot.Event> events, List<Snapshot.Dispute> rows,
                                            List<PspDispute> reported) {
        Snapshot.Payment payment = new Snapshot.Payment(DISPUTED, "m", "bk", 10_000, "EUR", "COMPLETED", 1,
                "sandbox", null, 4_000 + (events.size() > 3 ? 2_000 : 0), 0, 3, "automatic", 10_000, false, false,
                null, null, rows.stream().filter(d -> !d.status().equals("WON")).mapToLong(Snapshot.Dispute::amount)
                .sum());
        List<Snapshot.Refund> refunds = List.of(
                new Snapshot.Refund("re_1", DISPUTED, 1, 3_000, "SUCCEEDED", "sandbox", "ch_1", true),
                new Snapshot.Refund("re_2", DISPUTED, 1, 1_000, "PENDING", "sandbox", "ch_1", true),
                new Snapshot.Refund("re_3", DISPUTED, 1, 2_000, "PENDING", "sandbox", "ch_1", true));
        Snapshot db = new Snapshot(List.of(payment), List.of(), List.of(), events, List.of(), refunds, List.of(),
                List.of(), List.of(), List.of(), rows, List.of());
        CampaignFacts facts = new FrozenFacts(new CampaignFacts.Database("jdbc:none", "", "", "none"), List.of(),
                List.of(), List.of(), List.of(), Optional.empty(), reported);
        return new DisputesOncePerReference().check(new CheckContext(facts, List.of(), List.of(), db, null,
                List.of()));
    }

    private static Snapshot.Dispute row(String status) {
        return new Snapshot.Dispute("dp_1", DISPUTED, "sandbox", "ch_1-dispute", 6_000, status);
    }

    private static PspDispute reported(boolean acknowledged, String... statuses) {
        return new PspDispute("sandbox", "ch_1-dispute", DISPUTED, 6_000, List.of(statuses), acknowledged);
    }

    @Test
    void aRefundGrantedAfterADisputeMayTakeOnlyWhatTheDisputeLeft() {
        assertThat(disputes(disputeHistory(), List.of(row("OPEN")), List.of(reported(true, "OPEN"))).passed())
                .isTrue();

        List<Snapshot.Event> beyond = disputeHistory();
        beyond.add(new Snapshot.Event(4, "evt_4", "m", "refund.created", DISPUTED, "bk",
                "{\"refundId\": \"re_3\", \"amount\": 2000}"));
        InvariantResult over = disputes(beyond, List.of(row("OPEN")), List.of(reported(true, "OPEN")));
        assertThat(over.passed()).isFalse();
        assertThat(over.detail()).contains("refund re_3", "> captured 10000");
        assertThat(over.offendingKeys()).containsExactly(DISPUTED);
    }

    @Test
    void aDisputeWonBeforeARefundGivesItsMoneyBack() {
        List<Snapshot.Event> events = disputeHistory();
        events.add(2, new Snapshot.Event(5, "evt_5", "m", "dispute.won", DISPUTED, "bk",
                "{\"id\": \"dp_1\", \"amount\": 6000, \"status\": \"WON\"}"));
        events.add(new Snapshot.Event(6, "evt_6", "m", "refund.created", DISPUTED, "bk",
                "{\"refundId\": \"re_3\", \"amount\": 2000}"));

        assertThat(disputes(events, List.of(row("WON")), List.of(reported(true, "OPEN", "WON"))).passed()).isTrue();
    }

    @Test
    void eachReportedDisputeIsOneRowWithThePspsLastStatusAndNoOtherRowExists() {
        InvariantResult stale = disputes(disputeHistory(), List.of(row("OPEN")), List.of(reported(true, "OPEN",
                "LOST")));
        assertThat(stale.passed()).isFalse();
        assertThat(stale.detail()).contains("status OPEN, the PSP reported [OPEN, LOST]");

        assertThat(disputes(disputeHistory(), List.of(row("OPEN")), List.of(reported(false, "OPEN", "LOST")))
                .passed()).as("a last report not yet acknowledged: an earlier status is fine").isTrue();

        InvariantResult missing = disputes(disputeHistory(), List.of(), List.of(reported(true, "OPEN")));
        assertThat(missing.passed()).isFalse();
        assertThat(missing.detail()).contains("0 rows");

        InvariantResult unknown = disputes(disputeHistory(), List.of(row("OPEN")), List.of());
        assertThat(unknown.passed()).isFalse();
        assertThat(unknown.detail()).contains("a dispute no PSP reported");
    }

    @Test
    void theSandboxsOwnDisputeOfAPmCardDisputedChargeIsExpectedEvenIfTheGatewaysNeverSawThePayment() {
        List<PspDispute> expected = DisputesOncePerReference.withTheSandboxsOwn(List.of(),
                List.of(new Snapshot.SandboxDisputed("ch_9", "pay_9", 2_500, true)));

        assertThat(expected).containsExactly(new PspDispute("sandbox", "ch_9-dispute", "pay_9", 2_500,
                List.of("OPEN", "LOST"), true));
        assertThat(DisputesOncePerReference.withTheSandboxsOwn(List.of(new PspDispute("sandbox", "ch_9-dispute",
                "pay_9", 2_500, List.of("OPEN", "LOST"), true)), List.of(new Snapshot.SandboxDisputed("ch_9",
                "pay_9", 2_500, false)))).as("the gateways' acknowledged reports count").extracting(
                PspDispute::acknowledged).containsExactly(true);
    }
}
