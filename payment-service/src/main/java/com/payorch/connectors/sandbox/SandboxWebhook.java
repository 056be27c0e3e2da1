package com.payorch.connectors.sandbox;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * One webhook the sandbox sends about a settled charge or refund. Its id depends only on the charge and the type
 * (`msg_<charge id>_<processing|succeeded|failed>`), so every redelivery of it carries the same id.
 */
record SandboxWebhook(String id, String type, String paymentId, byte[] body) {

    private static final JsonMapper JSON = new JsonMapper();

    /** `payment.processing`, then `payment.succeeded` or `payment.failed`. */
    static List<SandboxWebhook> forSettledCharge(SandboxCharge charge) {
        String outcome = switch (charge.status()) {
            case "succeeded", "failed" -> charge.status();
            default -> throw new IllegalArgumentException("charge " + charge.id() + " is not settled");
        };
        return List.of(of(charge, "processing"), of(charge, outcome));
    }

    /**
     * `refund.succeeded` or `refund.failed` about a settled refund, with `data.refundId`, `data.paymentId`,
     * `data.chargeId`, `data.amount`, `data.currency` (and `data.failureReason`); id `msg_<rf id>_<outcome>`.
     */
    static SandboxWebhook forSettledRefund(SandboxRefund refund) {
        String outcome = switch (refund.status()) {
            case "succeeded", "failed" -> refund.status();
            default -> throw new IllegalArgumentException("refund " + refund.id() + " is not settled");
        };
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("refundId", refund.refundId());
        data.put("paymentId", refund.paymentId());
        data.put("chargeId", refund.chargeId());
        data.put("amount", refund.amount());
        data.put("currency", refund.currency());
        if (outcome.equals("failed")) {
            data.put("failureReason", refund.failureReason());
        }
        String type = "refund." + outcome;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("data", data);
        return new SandboxWebhook("msg_" + refund.id() + "_" + outcome, type, refund.paymentId(),
                JSON.writeValueAsBytes(body));
    }

    private static SandboxWebhook of(SandboxCharge charge, String status) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("paymentId", charge.paymentId());
        data.put("chargeId", charge.id());
        data.put("amount", charge.amount());
        data.put("currency", charge.currency());
        if (status.equals("failed")) {
            data.put("failureReason", charge.failureReason());
        }
        String type = "payment." + status;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("data", data);
        return new SandboxWebhook("msg_" + charge.id() + "_" + status, type, charge.paymentId(),
                    JSON.writeValueAsBytes(body));
    }
}
