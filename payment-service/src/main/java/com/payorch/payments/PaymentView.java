package com.payorch.payments;

import tools.jackson.databind.ObjectMapper;
import com.payorch.support.Timestamps;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/** The payment resource of the API, rendered once so that a stored response and a live one are the same bytes. */
@Component
public class PaymentView {

    record HistoryEntry(String from, String to, String event, String source, String sourceId, String at) {
    }

    record Resource(String id, String bookingId, long amount, String currency, String status, long version,
                    String paymentMethod, String failureReason, String createdAt, String updatedAt,
                    List<HistoryEntry> history) {
    }

    private final ObjectMapper objectMapper;

    public PaymentView(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    public Resource resource(Payment payment, List<PaymentTransition> history) {
        return new Resource(payment.id(), payment.bookingId(), payment.amount(), payment.currency(),
                payment.status().name(), payment.version(), payment.paymentMethod(), payment.failureReason(),
                Timestamps.format(payment.createdAt()), Timestamps.format(payment.updatedAt()),
                history.stream().map(PaymentView::entry).toList());
    }

    public byte[] render(Payment payment, List<PaymentTransition> history) {
        return json(resource(payment, history));
    }

    public byte[] renderList(List<Resource> resources) {
        return json(Map.of("data", resources));
    }

    public static String etag(Payment payment) {
        return "\"" + payment.version() + "\"";
    }

    private static HistoryEntry entry(PaymentTransition t) {
        return new HistoryEntry(t.from() == null ? null : t.from().name(), t.to().name(), t.event().name(),
                t.source().value(), t.sourceId(), Timestamps.format(t.at()));
    }

    private byte[] json(Object value) {
        return objectMapper.writeValueAsBytes(value);
    }
}
