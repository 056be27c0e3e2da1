package com.payorch.recovery;

import com.payorch.payments.CaptureProperties;
import com.payorch.payments.CaptureProperties.ExpiryPolicy;
import com.payorch.security.MerchantProperties;
import java.util.HashMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * What is done to each merchant's holds about to lapse: {@code payments.merchants.<id>.capture.on-expiry} when the
 * merchant sets it, else {@code payments.capture.on-expiry}. Read once at the start; a merchant's value other than
 * {@code cancel} or {@code capture} stops the start-up, naming the key.
 */
@Component
public class ExpiryPolicies {

    private final ExpiryPolicy standard;
    private final Map<String, ExpiryPolicy> byMerchant = new HashMap<>();

    public ExpiryPolicies(CaptureProperties capture, MerchantProperties merchants) {
        this.standard = capture.expiryPolicy();
        merchants.getMerchants().forEach((merchantId, merchant) -> {
            String value = merchant.getCapture() == null ? null : merchant.getCapture().getOnExpiry();
            if (value != null) {
                byMerchant.put(merchantId, ExpiryPolicy.parse(
                        "payments.merchants." + merchantId + ".capture.on-expiry", value));
            }
        });
    }

    public ExpiryPolicy of(String merchantId) {
        return byMerchant.getOrDefault(merchantId, standard);
    }
}
