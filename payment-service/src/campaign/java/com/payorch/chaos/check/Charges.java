package com.payorch.chaos.check;

import com.payorch.chaos.CampaignFacts;
import com.payorch.testsupport.MoneyInvariant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every charge any connector made, in one shape: the Stripe and Adyen fakes' ledgers ({@link CampaignFacts#pspCharges})
 * and the sandbox's own tables ({@code sandbox_charges}, {@code sandbox_refunds}).
 *
 * <p>A PSP charge's payment and attempt come from the idempotency key the service sent with it (the attempt's key:
 * the payment id for attempt 1, {@code <payment id>-attempt-<n>} after retries, {@code gateway.ChargeRequest}); when
 * that does not parse, from {@code reference} ({@code pay_…}, optionally followed by {@code :n}, {@code /n} or
 * {@code -attempt-n}); when the attempt is still unknown, from the attempt whose recorded (connector, reference) is
 * the charge's pspReference.
 */
record Charges(List<Charge> all) {

    /**
     * @param attempt null when it could not be told
     * @param tookMoney the connector holds the money (sandbox {@code succeeded}, PSP {@code succeeded})
     * @param declined the connector took nothing and never will (sandbox {@code failed})
     */
    record Charge(String connector, String reference, String paymentId, Integer attempt, long amount,
                  String currency, boolean tookMoney, boolean declined, List<ChargeRefund> refunds,
                  MoneyInvariant.Charge sandboxHold) {

        Charge(String connector, String reference, String paymentId, Integer attempt, long amount, String currency,
               boolean tookMoney, boolean declined, List<ChargeRefund> refunds) {
            this(connector, reference, paymentId, attempt, amount, currency, tookMoney, declined, refunds, null);
        }

        /** The charge as {@link MoneyInvariant} reads it (a sandbox hold as the invariant maps the sandbox's). */
        MoneyInvariant.Charge toMoney() {
            if (sandboxHold != null) {
                return sandboxHold;
            }
            return new MoneyInvariant.Charge(connector, reference, paymentId, attempt, amount, currency,
                    tookMoney ? MoneyInvariant.ChargeStatus.TOOK_MONEY
                            : declined ? MoneyInvariant.ChargeStatus.DECLINED : MoneyInvariant.ChargeStatus.PENDING,
                    refunds.stream().map(r -> new MoneyInvariant.ChargeRefund(r.reference(), r.amount(), r.failed()))
                            .toList());
        }

    }

    record ChargeRefund(String reference, long amount, boolean failed) {
    }

    /** An attempt's key, as the service sent it or as a PSP that forgot it got it ({@code world.IdempotencyKeyMemory}). */
    private static final Pattern ATTEMPT_KEY =
            Pattern.compile("^(pay_[A-Za-z0-9]+)(?:-attempt-(\\d+))?(?:-forgotten)?$");
    private static final Pattern REFERENCE = Pattern.compile("(pay_[A-Za-z0-9]+)(?:(?:-attempt-|[:/#])(\\d+))?");

    static Charges of(CampaignFacts facts, Snapshot db) {
        List<Charge> all = new ArrayList<>();
        Map<String, List<ChargeRefund>> sandboxRefunds = new HashMap<>();
        for (Snapshot.SandboxRefund refund : db.sandboxRefunds()) {
            sandboxRefunds.computeIfAbsent(refund.chargeId(), k -> new ArrayList<>())
                    .add(new ChargeRefund(refund.id(), refund.amount(), refund.status().equals("failed")));
        }
        for (Snapshot.SandboxCharge charge : db.sandboxCharges()) {
            List<ChargeRefund> refunds = sandboxRefunds.getOrDefault(charge.id(), List.of());
            MoneyInvariant.Charge hold = !"manual".equals(charge.captureMethod()) ? null
                    : MoneyInvariant.sandboxCharge(charge.id(), charge.paymentId(), charge.attempt(), charge.amount(),
                            charge.currency(), charge.status(), charge.captureMethod(), charge.captures(),
                            charge.captureKey(), charge.captureAmount(), charge.amountCaptured(),
                            refunds.stream().map(r -> new MoneyInvariant.ChargeRefund(r.reference(), r.amount(),
                                    r.failed())).toList());
            all.add(new Charge("sandbox", charge.id(), charge.paymentId(), charge.attempt(), charge.amount(),
                    charge.currency(), charge.status().equals("succeeded"), charge.status().equals("failed"),
                    refunds, hold));
        }
        Map<String, Snapshot.Attempt> attemptsByReference = new HashMap<>();
        db.attempts().stream().filter(a -> a.reference() != null)
                .forEach(a -> attemptsByReference.put(a.connector() + ":" + a.reference(), a));
        for (CampaignFacts.PspCharge psp : facts.pspCharges()) {
            String paymentId = null;
            Integer attempt = null;
            Matcher key = ATTEMPT_KEY.matcher(psp.idempotencyKey() == null ? "" : psp.idempotencyKey());
            if (key.matches()) {
                paymentId = key.group(1);
                attempt = key.group(2) == null ? 1 : Integer.parseInt(key.group(2));
            } else if (psp.reference() != null) {
                Matcher reference = REFERENCE.matcher(psp.reference());
                if (reference.find()) {
                    paymentId = reference.group(1);
                    attempt = reference.group(2) == null ? null : Integer.parseInt(reference.group(2));
                }
            }
            Snapshot.Attempt recorded = attemptsByReference.get(psp.connector() + ":" + psp.pspReference());
            if (recorded != null && (paymentId == null || paymentId.equals(recorded.paymentId()))) {
                paymentId = recorded.paymentId();
                attempt = attempt == null ? recorded.number() : attempt;
            }
            List<ChargeRefund> refunds = psp.refunds() == null ? List.of() : psp.refunds().stream()
                    .map(r -> new ChargeRefund(r.pspReference(), r.amount(), failed(r.status()))).toList();
            all.add(new Charge(psp.connector(), psp.pspReference(), paymentId, attempt, psp.amount(),
                    psp.currency() == null ? null : psp.currency().toUpperCase(Locale.ROOT), psp.succeeded(), false,
                    refunds));
        }
        return new Charges(List.copyOf(all));
    }

    /** A PSP refund that gives nothing back: failed, declined, refused, cancelled, reversed. */
    static boolean failed(String status) {
        return MoneyInvariant.gaveNothingBack(status);
    }

    List<MoneyInvariant.Charge> forMoneyInvariant() {
        return all.stream().map(Charge::toMoney).toList();
    }
}
