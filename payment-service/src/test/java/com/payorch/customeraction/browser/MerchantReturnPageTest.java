package com.payorch.customeraction.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class MerchantReturnPageTest {

    @Test
    void recordsTheQueryOfEveryVisitAndShowsThePaymentId() throws Exception {
        try (MerchantReturnPage page = MerchantReturnPage.start()) {
            HttpResponse<String> answer = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(page.url("order=42&payment_id=pay_a%3Cb"))).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).contains("<span id=\"payment-id\">pay_a&lt;b</span>");
            assertThat(page.visits()).singleElement().satisfies(visit -> assertThat(visit)
                    .containsEntry("order", "42").containsEntry("payment_id", "pay_a<b"));
            assertThat(page.visitsOf("pay_a<b")).hasSize(1);
            assertThat(page.visitsOf("pay_other")).isEmpty();
        }
    }
}
