package com.payorch.recovery;

import com.payorch.gateway.CaptureMethod;
import com.payorch.idempotency.IdempotentRequest;
import com.payorch.idempotency.StoredResponse;
import com.payorch.payments.IdempotentPaymentFlow;
import com.payorch.payments.NewPayment;
import com.payorch.payments.PaymentResponse;
import com.payorch.testsupport.TestQueries;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import reactor.core.publisher.Mono;

/**
 * Holds for the jobs' tests, made through the service's own idempotent flow (what {@code POST /v1/payments} with
 * {@code "captureMethod": "manual"}, {@code /capture} and {@code /cancel} run), each with a fresh key.
 */
final class Holds {

    static final long AMOUNT = 12000;
    private static final PaymentResponse NO_BODY = payment -> new StoredResponse(200, Map.of(), new byte[0], false);

    private final IdempotentPaymentFlow flow;
    private final TestQueries queries;

    Holds(IdempotentPaymentFlow flow, TestQueries queries) {
        this.flow = flow;
        this.queries = queries;
    }

    /** A manual-capture payment of {@code merchant} for {@code booking}, submitted to the sandbox: its id. */
    String place(String merchant, String booking, String paymentMethod) {
        NewPayment hold = new NewPayment(booking, AMOUNT, "JPY", paymentMethod, "guest@example.com", "Room 101",
                Map.of(), CaptureMethod.MANUAL);
        flow.create(request(merchant, "/v1/payments"), hold, NO_BODY).block(Duration.ofSeconds(30));
        return queries.paymentOfBooking(booking);
    }

    /** {@code POST /v1/payments/{id}/capture} of all of it; the error when its answer was lost. */
    Mono<StoredResponse> capture(String merchant, String paymentId) {
        return flow.capture(request(merchant, "/v1/payments/" + paymentId + "/capture"), paymentId, null,
                payment -> { }, NO_BODY);
    }

    /** {@code POST /v1/payments/{id}/cancel}; the error when its answer was lost. */
    Mono<StoredResponse> cancel(String merchant, String paymentId) {
        return flow.cancel(request(merchant, "/v1/payments/" + paymentId + "/cancel"), paymentId, null,
                payment -> { }, NO_BODY);
    }

    private static IdempotentRequest request(String merchant, String path) {
        String key = "key_" + UUID.randomUUID();
        return new IdempotentRequest(merchant, key, "POST", path, key);
    }
}
