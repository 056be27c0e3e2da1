package com.payorch.chaos.check;

import com.payorch.chaos.CampaignFacts.PspCharge;
import com.payorch.chaos.CampaignFacts.PspRefund;
import com.payorch.fakes.FakeAdyen;
import com.payorch.fakes.FakeStripe;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The PSP fakes' ledgers as {@link PspCharge}s, filled the way the checker reads them (for a campaign's
 * {@link com.payorch.chaos.CampaignFacts#pspCharges}):
 * <ul>
 *   <li>{@code idempotencyKey}: the attempt's key the service sends ({@code <payment id>} for attempt 1,
 *       {@code <payment id>-attempt-<n>} after retries), which ties the charge to its payment and attempt;</li>
 *   <li>{@code reference}: the payment id the service sent (Stripe {@code metadata[payment_id]}, Adyen
 *       {@code reference});</li>
 *   <li>{@code succeeded}: the PSP holds the money;</li>
 *   <li>refunds with a status whose failure the checker recognises ({@code failed}, {@code refused}, …).</li>
 * </ul>
 */
public final class Ledgers {

    private Ledgers() {
    }

    /**
     * Every PaymentIntent the fake Stripe holds as charged or processing ({@link FakeStripe#chargedIntents}; a
     * declined one holds no money and is not listed), {@code succeeded} when its status is {@code succeeded}, with
     * its refunds. The fake keeps no map from key to intent, so the key is rebuilt from the intent's
     * {@code metadata[payment_id]} and {@code metadata[attempt]} the service sent with it.
     */
    public static List<PspCharge> stripe(FakeStripe stripe) {
        List<PspCharge> charges = new ArrayList<>();
        for (String id : stripe.chargedIntents()) {
            Map<String, Object> intent = stripe.intent(id);
            Map<?, ?> metadata = (Map<?, ?>) intent.getOrDefault("metadata", Map.of());
            String paymentId = (String) metadata.get("payment_id");
            String attempt = (String) metadata.get("attempt");
            String key = paymentId == null ? null
                    : attempt == null || attempt.equals("1") ? paymentId : paymentId + "-attempt-" + attempt;
            List<PspRefund> refunds = stripe.refundsOf(id).stream()
                    .map(r -> new PspRefund((String) r.get("id"), ((Number) r.get("amount")).longValue(),
                            String.valueOf(r.get("status"))))
                    .toList();
            charges.add(new PspCharge("stripe", id, key, paymentId, ((Number) intent.get("amount")).longValue(),
                    String.valueOf(intent.get("currency")).toUpperCase(Locale.ROOT),
                    "succeeded".equals(intent.get("status")), refunds));
        }
        return charges;
    }

    /**
     * Every payment the fake Adyen processed (any result code), with its refunds. The fake answers
     * {@code Authorised} (money taken at once), {@code Refused} or {@code Received} (the outcome comes by the
     * AUTHORISATION notification the campaign sends): {@code succeededLater} names the pspReferences whose
     * notification said {@code success=true}. Adyen answers a refund {@code received}; {@code failedRefunds} names
     * the refund pspReferences whose REFUND notification said {@code success=false}.
     */
    public static List<PspCharge> adyen(FakeAdyen adyen, Set<String> succeededLater, Set<String> failedRefunds) {
        List<PspCharge> charges = new ArrayList<>();
        for (Map<String, Object> payment : adyen.payments()) {
            String psp = (String) payment.get("pspReference");
            Map<?, ?> amount = (Map<?, ?>) payment.get("amount");
            String resultCode = String.valueOf(payment.get("resultCode"));
            boolean succeeded = resultCode.equals("Authorised")
                    || (resultCode.equals("Received") && succeededLater.contains(psp));
            List<PspRefund> refunds = adyen.givenBack(psp).stream()
                    .map(r -> new PspRefund((String) r.get("pspReference"),
                            ((Number) ((Map<?, ?>) r.get("amount")).get("value")).longValue(),
                            failedRefunds.contains((String) r.get("pspReference")) ? "refused"
                                    : String.valueOf(r.get("status"))))
                    .toList();
            charges.add(new PspCharge("adyen", psp, (String) payment.get("idempotencyKey"),
                    (String) payment.get("reference"), ((Number) amount.get("value")).longValue(),
                    String.valueOf(amount.get("currency")).toUpperCase(Locale.ROOT), succeeded, refunds));
        }
        return charges;
    }
}
