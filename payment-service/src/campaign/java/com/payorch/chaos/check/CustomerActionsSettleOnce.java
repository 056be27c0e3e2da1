package com.payorch.chaos.check;

import com.payorch.chaos.check.Checker.InvariantResult;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Invariant 12 (issue 24): every payment that waited for its customer settled once, as the customer answered.
 *
 * <p>Action payments are those with a transition to {@code REQUIRES_ACTION}. What the customer did is read from the
 * history: a {@code POST /sandbox/authenticate/{charge}} with {@code decision=approve} or {@code decision=decline}
 * (answered or lost: a lost one may have been taken), the charge's payment from {@code sandbox_charges}. Then, after
 * the world settled:
 * <ul>
 *   <li>every action payment is COMPLETED, AUTHORIZED, FAILED or CANCELLED (never still REQUIRES_ACTION);</li>
 *   <li>at most one of its charges took money that was not given back as an orphan;</li>
 *   <li>approved: COMPLETED or AUTHORIZED, or FAILED {@code authentication_expired} (the approval raced the expiry:
 *       a charge that took money must then be on an orphaned attempt with an orphan refund row);</li>
 *   <li>declined (and never approved): FAILED, keeping no money;</li>
 *   <li>abandoned (no decision sent): FAILED {@code authentication_expired}, keeping no money;</li>
 *   <li>each wait left once: as many transitions out of REQUIRES_ACTION as into it, and no final status
 *       (COMPLETED, FAILED, CANCELLED) entered twice.</li>
 * </ul>
 * Offending keys: payment ids.
 */
final class CustomerActionsSettleOnce implements Invariant {

    static final String EXPIRED = "authentication_expired";
    private static final Pattern PAGE = Pattern.compile("^/sandbox/authenticate/([^/?]+)");
    private static final Set<String> SETTLED = Set.of("COMPLETED", "AUTHORIZED", "FAILED", "CANCELLED");
    private static final Set<String> FINAL = Set.of("COMPLETED", "FAILED", "CANCELLED");

    enum Answer { APPROVED, DECLINED, ABANDONED }

    @Override
    public String name() {
        return "customer-actions-settle-once";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        Snapshot db = context.db();
        Map<String, List<Snapshot.Transition>> transitions = db.transitionsByPayment();
        Map<String, Answer> answers = answers(context);
        Set<String> offending = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        Map<String, Integer> outcomes = new TreeMap<>();
        Map<Answer, Integer> byAnswer = new TreeMap<>();
        for (Snapshot.Payment payment : db.payments()) {
            List<Snapshot.Transition> own = transitions.getOrDefault(payment.id(), List.of());
            if (own.stream().noneMatch(t -> "REQUIRES_ACTION".equals(t.toStatus()))) {
                continue;
            }
            Answer answer = answers.getOrDefault(payment.id(), Answer.ABANDONED);
            byAnswer.merge(answer, 1, Integer::sum);
            String outcome = payment.status() + (payment.failureReason() == null ? "" : " " + payment.failureReason());
            outcomes.merge(outcome, 1, Integer::sum);
            String problem = problem(payment, answer, own, context);
            if (problem != null) {
                problems.add(payment.id() + " (" + answer.name().toLowerCase() + ", " + outcome + "): " + problem);
                offending.add(payment.id());
            }
        }
        int total = byAnswer.values().stream().mapToInt(Integer::intValue).sum();
        String detail = total + " action payments " + byAnswer + ", ended " + outcomes
                + (problems.isEmpty() ? ": each settled once, as its customer answered"
                        : "; " + problems.size() + " problems, first: " + problems.get(0));
        return new InvariantResult(name(), problems.isEmpty(), detail, offending);
    }

    private static String problem(Snapshot.Payment payment, Answer answer, List<Snapshot.Transition> own,
                                  CheckContext context) {
        if (!SETTLED.contains(payment.status())) {
            return "not settled";
        }
        long entered = own.stream().filter(t -> "REQUIRES_ACTION".equals(t.toStatus())).count();
        long left = own.stream().filter(t -> "REQUIRES_ACTION".equals(t.fromStatus())).count();
        if (entered != left) {
            return "entered REQUIRES_ACTION " + entered + " times, left it " + left + " times";
        }
        for (String status : FINAL) {
            long times = own.stream().filter(t -> status.equals(t.toStatus())).count();
            if (times > 1) {
                return "became " + status + " " + times + " times";
            }
        }
        Set<Integer> orphanRefunded = orphanRefundedAttempts(payment.id(), context.db());
        List<Charges.Charge> kept = context.charges().all().stream()
                .filter(c -> payment.id().equals(c.paymentId()) && c.tookMoney())
                .filter(c -> c.attempt() == null || !orphanRefunded.contains(c.attempt()))
                .toList();
        if (kept.size() > 1) {
            return kept.size() + " charges took money";
        }
        boolean expired = "FAILED".equals(payment.status()) && EXPIRED.equals(payment.failureReason());
        return switch (answer) {
            case APPROVED -> payment.status().equals("COMPLETED") || payment.status().equals("AUTHORIZED")
                    || expired && kept.isEmpty() ? null
                    : "approved, but neither COMPLETED/AUTHORIZED nor expired without keeping money";
            case DECLINED -> payment.status().equals("FAILED") && kept.isEmpty() ? null
                    : "declined, but not FAILED without keeping money";
            case ABANDONED -> expired && kept.isEmpty() ? null
                    : "abandoned, but not FAILED " + EXPIRED + " without keeping money";
        };
    }

    /** Attempts of the payment marked orphaned whose automatic refund row exists. */
    private static Set<Integer> orphanRefundedAttempts(String paymentId, Snapshot db) {
        Set<Integer> refunded = new LinkedHashSet<>();
        for (Snapshot.Refund refund : db.refunds()) {
            if (paymentId.equals(refund.paymentId()) && !refund.countsAgainstPayment()) {
                refunded.add(refund.attempt());
            }
        }
        Set<Integer> orphaned = new LinkedHashSet<>();
        for (Snapshot.Attempt attempt : db.attempts()) {
            if (paymentId.equals(attempt.paymentId()) && attempt.orphaned() && refunded.contains(attempt.number())) {
                orphaned.add(attempt.number());
            }
        }
        return orphaned;
    }

    /** What the customer answered, per payment id: an approval counts over a decline. */
    static Map<String, Answer> answers(CheckContext context) {
        Map<String, String> chargePayments = new HashMap<>();
        context.db().sandboxCharges().forEach(c -> chargePayments.put(c.id(), c.paymentId()));
        Map<String, Answer> answers = new HashMap<>();
        for (Operations.Operation op : context.operations()) {
            if (!"POST".equalsIgnoreCase(op.method()) || op.path() == null) {
                continue;
            }
            Matcher page = PAGE.matcher(op.path());
            if (!page.find()) {
                continue;
            }
            String paymentId = chargePayments.get(page.group(1));
            String decision = formField(op.requestBody(), "decision");
            if (paymentId == null || decision == null) {
                continue;
            }
            Answer answer = decision.equals("approve") ? Answer.APPROVED : Answer.DECLINED;
            answers.merge(paymentId, answer, (a, b) -> a == Answer.APPROVED || b == Answer.APPROVED
                    ? Answer.APPROVED : Answer.DECLINED);
        }
        return answers;
    }

    static String formField(String body, String name) {
        if (body == null) {
            return null;
        }
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8).equals(name)) {
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }
}
