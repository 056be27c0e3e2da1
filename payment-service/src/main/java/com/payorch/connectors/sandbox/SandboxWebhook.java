package com.payorch.connectors.sandbox;

import com.payorch.support.Timestamps;
import java.time.Duration;
import java.time.Instant;
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

    /**
     * The webhooks of a charge's settled state: `payment.processing`, then `payment.succeeded` or `payment.failed`
     * (or `payment.authorized` for a hold); a hold's later states each their own: `payment.captured`,
     * `payment.capture_failed` (one per capture that failed), `payment.cancelled`.
     */
    static List<SandboxWebhook> forSettledCharge(SandboxCharge charge) {
        return switch (charge.status()) {
            case "failed", "authorized" -> List.of(of(charge, "processing"), of(charge, charge.status()));
            case "succeeded" -> charge.manual() ? List.of(of(charge, "captured"))
                    : List.of(of(charge, "processing"), of(charge, "succeeded"));
            case "capture_failed", "cancelled" -> List.of(of(charge, charge.status()));
            default -> throw new IllegalArgumentException("charge " + charge.id() + " is not settled");
        };
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

    /** The token whose charge, once it succeeded, the card holder's bank disputes, and the dispute is lost. */
    static final String DISPUTED_TOKEN = "pm_card_disputed";
    static final String DISPUTE_REASON = "fraudulent";
    static final Duration EVIDENCE_DUE_AFTER = Duration.ofDays(7);

    /**
     * The dispute a charge made with {@link #DISPUTED_TOKEN} meets once it succeeded: `dispute.opened`, then
     * `dispute.lost`, each with `data.paymentId`, `data.chargeId`, `data.disputeId` (`<charge id>-dispute`),
     * `data.amount` (the charge's amount, or what its capture took), `data.currency`, `data.reason` (`fraudulent`),
     * `data.evidenceDueBy` (seven days after it opened) and `data.occurredAt`; ids `msg_<charge id>_dispute_<opened|lost>`.
     * Empty for any other charge.
     */
    static List<SandboxWebhook> disputesOf(SandboxCharge charge, String paymentMethod, Instant openedAt) {
        if (!DISPUTED_TOKEN.equals(paymentMethod) || !"succeeded".equals(charge.status())) {
            return List.of();
        }
        return List.of(dispute(charge, "opened", openedAt, openedAt), dispute(charge, "lost", openedAt, openedAt));
    }

    private static SandboxWebhook dispute(SandboxCharge charge, String kind, Instant openedAt, Instant occurredAt) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("paymentId", charge.paymentId());
        data.put("chargeId", charge.id());
        data.put("disputeId", charge.id() + "-dispute");
        data.put("amount", charge.amountCaptured() != null ? charge.amountCaptured() : charge.amount());
        data.put("currency", charge.currency());
        data.put("reason", DISPUTE_REASON);
        data.put("evidenceDueBy", Timestamps.format(openedAt.plus(EVIDENCE_DUE_AFTER)));
        data.put("occurredAt", Timestamps.format(occurredAt));
        String type = "dispute." + kind;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("data", data);
        return new SandboxWebhook("msg_" + charge.id() + "_dispute_" + kind, type, charge.paymentId(),
                JSON.writeValueAsBytes(body));
    }

    /** {@code data.amount} is the charge's (authorised) amount; a capture adds {@code data.amountCaptured}. */
    private static SandboxWebhook of(SandboxCharge charge, String status) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("paymentId", charge.paymentId());
        data.put("chargeId", charge.id());
        data.put("amount", charge.amount());
        data.put("currency", charge.currency());
        if (status.equals("failed") || status.equals("capture_failed")) {
            data.put("failureReason", charge.failureReason());
        }
        if (status.equals("captured")) {
            data.put("amountCaptured", charge.amountCaptured());
        }
        String type = "payment." + status;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("data", data);
        // A capture may fail more than once (each a new capture): each failure is its own webhook.
        String id = "msg_" + charge.id() + "_" + status
                + (status.equals("capture_failed") ? "_" + charge.captures() : "");
        return new SandboxWebhook(id, type, charge.paymentId(), JSON.writeValueAsBytes(body));
    }
}
