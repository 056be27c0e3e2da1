package com.payorch.chaos.workload;

import com.payorch.chaos.world.PspFaults;
import com.payorch.fakes.FakeAdyen;
import com.payorch.fakes.FakeStripe;
import java.util.List;

/**
 * Where the campaign's clients send their requests, and what they need to make them valid: the instances (they
 * keep their ports across restarts), one API key per merchant with the connector its routing starts with, and the
 * secrets the gateways sign their webhooks with (gateway webhooks are built from what the fakes charged).
 *
 * @param instanceBaseUrls {@code http://localhost:port} of instance i1, i2, i3 (index 0..2)
 * @param merchants the merchants, each routed to one connector chain
 * @param pspFaults what the nemesis makes the PSPs do, carried out by the gateways' side
 */
public record WorkloadTargets(
        List<String> instanceBaseUrls,
        List<Merchant> merchants,
        String sandboxWebhookSecret,
        FakeStripe stripe,
        String stripeWebhookSecret,
        FakeAdyen adyen,
        String adyenMerchantAccount,
        String adyenHmacKey,
        PspFaults pspFaults) {

    /** Targets whose PSPs never misbehave on their own (no nemesis). */
    public WorkloadTargets(List<String> instanceBaseUrls, List<Merchant> merchants, String sandboxWebhookSecret,
                           FakeStripe stripe, String stripeWebhookSecret, FakeAdyen adyen, String adyenMerchantAccount,
                           String adyenHmacKey) {
        this(instanceBaseUrls, merchants, sandboxWebhookSecret, stripe, stripeWebhookSecret, adyen,
                adyenMerchantAccount, adyenHmacKey, PspFaults.none());
    }

    /** @param routing the merchant's {@code payments.merchants.<id>.routing}, e.g. {@code sandbox}, {@code stripe,adyen} */
    public record Merchant(String id, String apiKey, String routing) {
    }
}
