package com.payorch.refunds.api;

import com.payorch.refunds.Refund;
import com.payorch.support.Page;
import com.payorch.support.Timestamps;
import com.payorch.web.Pagination;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/** The refund resource of the API, rendered once so that a stored response and a live one are the same bytes. */
@Component
public class RefundView {

    record Resource(String id, String paymentId, long amount, String currency, String status, String reason,
                    String failureReason, String connector, String connectorReference, long version, String createdAt,
                    String updatedAt) {
    }

    private final ObjectMapper objectMapper;

    public RefundView(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    Resource resource(Refund refund) {
        return new Resource(refund.id(), refund.paymentId(), refund.amount(), refund.currency(), refund.status().name(),
                refund.reason(), refund.failureReason(), refund.connector(), refund.connectorReference(),
                refund.version(), Timestamps.format(refund.createdAt()), Timestamps.format(refund.updatedAt()));
    }

    public byte[] render(Refund refund) {
        return objectMapper.writeValueAsBytes(resource(refund));
    }

    public byte[] renderPage(Page<Refund> page) {
        return objectMapper.writeValueAsBytes(Pagination.body(page.map(this::resource)));
    }
}
