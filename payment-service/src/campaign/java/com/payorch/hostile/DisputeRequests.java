package com.payorch.hostile;

import static com.payorch.hostile.HostileRequests.NUMBERS;
import static com.payorch.hostile.HostileRequests.escape;

import com.payorch.hostile.HostileRequest.Category;
import java.util.List;
import java.util.Random;

/**
 * Disputes in the generator: the read endpoints with bad ids, other merchants' ids, bad queries and methods, and the
 * bodies of the sandbox's dispute webhooks (forged ones to be sent unsigned or badly signed, malformed ones signed).
 *
 * <p>A signed dispute report that the service could apply would leave a dispute and a receipt behind, so every
 * malformed body either is one the sandbox's parser refuses (400 `webhook_invalid`) while naming the completed
 * payment and its charge, or names a payment that does not exist (404): never a well-formed report about a payment
 * (that would be a legitimate outcome, applied or recorded as rejected).
 */
final class DisputeRequests {

    private final long seed;
    private final HostileRequests.Targets t;
    private final V3Targets v;

    DisputeRequests(long seed, HostileRequests.Targets targets) {
        this.seed = seed;
        this.t = targets;
        this.v = targets.v3();
    }

    // ---- reads -----------------------------------------------------------------------------------------------------

    HostileRequest read(long index, Random r) {
        String target = switch (r.nextInt(4)) {
            case 0 -> "/v1/disputes/" + disputeId(index, r);
            case 1 -> "/v1/payments/" + List.of(t.completedPayment(), v.hold(), t.foreignPayment(),
                    "pay_unknown" + index, "%00", v.dispute(), "pay_" + "x".repeat(300)).get(r.nextInt(7))
                    + "/disputes";
            default -> "/v1/disputes" + query(r);
        };
        String method = r.nextInt(8) == 0 ? List.of("POST", "PUT", "DELETE", "PATCH").get(r.nextInt(4)) : "GET";
        HostileRequest request = new HostileRequest(index, Category.DISPUTE_READ, method + " " + escape(target),
                method, target);
        String apiKey = switch (r.nextInt(10)) {
            case 0 -> null;
            case 1 -> "sk_unknown";
            case 2 -> t.foreignKeys().get(r.nextInt(t.foreignKeys().size()));
            default -> t.apiKey();
        };
        if (apiKey != null) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        if (!method.equals("GET") && !method.equals("DELETE")) {
            // a client trying to settle a dispute itself: disputes are read only
            request.header("Idempotency-Key", "hostile-" + seed + "-" + index)
                    .header("Content-Type", "application/json").json("{\"status\": \"WON\"}");
        }
        if (target.length() > 4000) {
            request.closeAfter = true;
        }
        return request;
    }

    private String disputeId(long index, Random r) {
        return List.of(v.dispute(), v.foreignDispute(), "dp_unknown" + index, "dp_" + "x".repeat(5000), "%00",
                "dp_%C0%80", v.dispute().toUpperCase(java.util.Locale.ROOT), t.completedPayment(), "..", "%2e%2e",
                "dp_\u00e9", v.dispute() + "/", "*", "dp_%27%20or%201=1", v.dispute() + "%00").get(r.nextInt(15));
    }

    private String query(Random r) {
        StringBuilder query = new StringBuilder();
        for (int i = r.nextInt(4); i >= 0; i--) {
            String parameter = List.of("status", "limit", "starting_after", "cursor", "paymentId", "").get(r.nextInt(6));
            String value = List.of("OPEN", "WON", "LOST", "open", "OPEN,LOST", "", "CLOSED", "0", "101", "-1", "abc",
                    "1e2", "9999999999999999999", v.dispute(), v.foreignDispute(), "dp_unknown", t.completedPayment(),
                    "%00", "%zz", "%", "%C0%80", "%E2%80%AE", "dp_" + "x".repeat(2000), "\u00e9", "20.5")
                    .get(r.nextInt(25));
            query.append(query.length() == 0 ? '?' : '&').append(parameter).append('=').append(value);
        }
        return query.toString();
    }

    // ---- webhook bodies --------------------------------------------------------------------------------------------

    /** A report meant to change the dispute or open another: to be sent without a valid signature. */
    String forgedBody(Random r) {
        return switch (r.nextInt(3)) {
            case 0 -> v.disputeWebhookBody().replace("dispute.opened", "dispute.won");
            case 1 -> v.disputeWebhookBody().replace("dispute.opened", "dispute.lost");
            default -> report("dispute.opened", t.completedPayment(), v.settledCharge(), "sbdp_forged", "1000", "JPY",
                    "");
        };
    }

    /** A correctly signed body that must be refused: malformed about the completed payment, or about no payment. */
    String malformedBody(long index, Random r) {
        String payment = t.completedPayment();
        String charge = v.settledCharge();
        String unknownPayment = "pay_unknown" + index;
        String unknownCharge = "ch_unknown" + index;
        String dispute = "sbdp_hostile_" + seed + "_" + index;
        return switch (r.nextInt(16)) {
            case 0 -> report(List.of("dispute.exploded", "dispute.OPENED", "dispute.", "Dispute.opened",
                    "dispute.opened\\u0000").get(r.nextInt(5)), payment, charge, dispute, "1000", "JPY", "");
            case 1 -> report("dispute.opened", payment, charge, dispute, List.of("0", "-1", "-5000", "\"1000\"",
                    "1000.5", "9223372036854775808", "1e400", "null", "true").get(r.nextInt(9)), "JPY", "");
            case 2 -> "{\"type\": \"dispute.opened\"" + List.of("", ", \"data\": []", ", \"data\": \"x\"",
                    ", \"data\": null").get(r.nextInt(4)) + "}";
            case 3 -> report("dispute.opened", payment, charge, dispute, "1000", "JPY", "")
                    .replace("\"disputeId\": \"" + dispute + "\"", List.of("\"disputeId\": null",
                            "\"disputeId\": 7", "\"disputeId\": \"\"", "\"disputeId\": \"" + "d".repeat(256) + "\"",
                            "\"disputeId\": \"dp\\u0000x\"", "\"noDisputeId\": 1").get(r.nextInt(6)));
            case 4 -> report("dispute.opened", payment, charge, dispute, "1000", List.of("null", "392", "\"\"")
                    .get(r.nextInt(3)), "");
            case 5 -> report("dispute.opened", payment, charge, dispute, "1000", "JPY",
                    ", \"reason\": " + List.of("7", "\"\"", "\"" + "r".repeat(256) + "\"", "\"fraud\\u0007\"",
                            "[\"fraudulent\"]").get(r.nextInt(5)));
            case 6 -> report("dispute.opened", payment, charge, dispute, "1000", "JPY",
                    ", \"evidenceDueBy\": " + List.of("\"not a date\"", "\"2026-13-45T25:61:00Z\"", "12345",
                            "\"\"", "[]").get(r.nextInt(5)));
            case 7 -> report("dispute.lost", payment, charge, dispute, "1000", "JPY",
                    ", \"occurredAt\": " + List.of("\"yesterday\"", "0", "\"2026-12-05 10:00:00\"")
                            .get(r.nextInt(3)));
            case 8 -> report("dispute.opened", payment, null, dispute, "1000", "JPY", "");
            case 9 -> report("dispute.opened", unknownPayment, unknownCharge, dispute, "1000", "JPY", "");
            case 10 -> report("dispute.won", null, unknownCharge, dispute, "1000", "JPY", "");
            // the completed payment's own charge, but named for a payment that does not exist
            case 11 -> report("dispute.opened", unknownPayment, charge, dispute, "1000", "JPY", "");
            case 12 -> report("dispute.opened", unknownPayment, unknownCharge, dispute,
                    NUMBERS[r.nextInt(NUMBERS.length)], List.of("JPY", "jpy", "XXX", "EUR").get(r.nextInt(4)),
                    ", \"reason\": \"" + List.of("\\u202eevil", "\\ud800", "<script>", "\u00e9").get(r.nextInt(4))
                            + "\", \"evidenceDueBy\": \"" + List.of("2026-12-12T10:00:00+09:00", "2026-02-30T00:00:00Z",
                            "-999999999-01-01T00:00:00Z", "+1000000000-01-01T00:00:00Z").get(r.nextInt(4)) + "\"");
            case 13 -> report("dispute.opened", unknownPayment, unknownCharge, dispute, "1000", "JPY",
                    ", \"reason\": \"" + "r".repeat(70_000) + "\"");
            case 14 -> "{\"type\": \"dispute.opened\", \"data\": " + "[".repeat(1 + r.nextInt(20_000));
            default -> report("dispute.opened", payment, charge, dispute, "1000", "JPY", "")
                    .replace("\"type\": \"dispute.opened\"", "\"type\": \"dispute.opened\", \"type\": \"dispute.won\"")
                    .replace("\"amount\": 1000", "\"amount\": 1000, \"amount\": 0");
        };
    }

    /** A sandbox dispute report; a null payment or charge leaves that member out; {@code extra} ends the data. */
    static String report(String type, String paymentId, String chargeId, String disputeId, String amount,
                         String currency, String extra) {
        return "{\"type\": \"" + type + "\", \"data\": {"
                + (paymentId == null ? "" : "\"paymentId\": \"" + paymentId + "\", ")
                + (chargeId == null ? "" : "\"chargeId\": \"" + chargeId + "\", ")
                + "\"disputeId\": \"" + disputeId + "\", \"amount\": " + amount + ", \"currency\": "
                + (currency.startsWith("\"") || currency.equals("null") || Character.isDigit(currency.charAt(0))
                ? currency : "\"" + currency + "\"") + extra + "}}";
    }
}
