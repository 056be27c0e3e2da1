package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.payments.CaptureProperties;
import com.payorch.payments.CaptureProperties.ExpiryPolicy;
import com.payorch.security.MerchantProperties;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which policy a merchant's hold about to lapse gets: its own {@code capture.on-expiry}, else the service's. */
class ExpiryPoliciesTest {

    @Test
    void aMerchantWithoutItsOwnPolicyGetsTheServicesPolicy() {
        ExpiryPolicies policies = new ExpiryPolicies(capture("cancel"), merchants(Map.of("hotel", "")));

        assertThat(policies.of("hotel")).isEqualTo(ExpiryPolicy.CANCEL);
        assertThat(policies.of("not-configured")).isEqualTo(ExpiryPolicy.CANCEL);
        assertThat(new ExpiryPolicies(capture("capture"), merchants(Map.of("hotel", ""))).of("hotel"))
                .isEqualTo(ExpiryPolicy.CAPTURE);
    }

    @Test
    void aMerchantsOwnPolicyOverridesTheServicesEitherWay() {
        ExpiryPolicies policies = new ExpiryPolicies(capture("cancel"),
                merchants(Map.of("no-show-fee", "capture", "hotel", "")));

        assertThat(policies.of("no-show-fee")).isEqualTo(ExpiryPolicy.CAPTURE);
        assertThat(policies.of("hotel")).isEqualTo(ExpiryPolicy.CANCEL);
        assertThat(new ExpiryPolicies(capture("capture"), merchants(Map.of("strict", "cancel"))).of("strict"))
                .isEqualTo(ExpiryPolicy.CANCEL);
    }

    @Test
    void aMerchantsOtherValueStopsTheStartNamingTheKey() {
        assertThatThrownBy(() -> new ExpiryPolicies(capture("cancel"), merchants(Map.of("hotel", "refund"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("payments.merchants.hotel.capture.on-expiry")
                .hasMessageContaining("'refund'");
        assertThatThrownBy(() -> new ExpiryPolicies(capture("cancel"), merchants(Map.of("hotel", "Capture"))))
                .hasMessageContaining("payments.merchants.hotel.capture.on-expiry");
    }

    @Test
    void theServicesOtherValueStopsTheStartNamingItsKey() {
        assertThatThrownBy(() -> capture("release"))
                .hasMessageContaining("payments.capture.on-expiry");
    }

    private static CaptureProperties capture(String onExpiry) {
        return new CaptureProperties(Duration.ofDays(7), onExpiry, Duration.ofHours(6));
    }

    /** Merchants by id, each with its {@code capture.on-expiry} ("" for none set). */
    private static MerchantProperties merchants(Map<String, String> onExpiry) {
        Map<String, MerchantProperties.Merchant> merchants = new LinkedHashMap<>();
        onExpiry.forEach((id, value) -> {
            MerchantProperties.Merchant merchant = new MerchantProperties.Merchant();
            merchant.setApiKey("sk_test_" + id);
            if (!value.isEmpty()) {
                merchant.getCapture().setOnExpiry(value);
            }
            merchants.put(id, merchant);
        });
        MerchantProperties properties = new MerchantProperties();
        properties.setMerchants(merchants);
        return properties;
    }
}
