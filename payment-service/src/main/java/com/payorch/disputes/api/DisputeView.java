package com.payorch.disputes.api;

import com.payorch.disputes.Dispute;
import com.payorch.support.Page;
import com.payorch.support.Timestamps;
import com.payorch.web.Pagination;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/** The dispute resource of the API. */
@Component
public class DisputeView {

    record Resource(String id, String paymentId, long amount, String currency, String status, String reason,
                    String connector, String connectorReference, String evidenceDueBy, long version,
                    String createdAt, String updatedAt) {
    }

    private final ObjectMapper objectMapper;

    public DisputeView(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    Resource resource(Dispute dispute) {
        return new Resource(dispute.id(), dispute.paymentId(), dispute.amount(), dispute.currency(),
                dispute.status().name(), dispute.reason(), dispute.connector(), dispute.connectorReference(),
                Timestamps.format(dispute.evidenceDueBy()), dispute.version(), Timestamps.format(dispute.createdAt()),
                Timestamps.format(dispute.updatedAt()));
    }

    public byte[] render(Dispute dispute) {
        return objectMapper.writeValueAsBytes(resource(dispute));
    }

    public byte[] renderPage(Page<Dispute> page) {
        return objectMapper.writeValueAsBytes(Pagination.body(page.map(this::resource)));
    }

    /** A payment's disputes, all of them (a payment has a handful at most): `{"data": […]}`. */
    public byte[] renderAll(List<Dispute> disputes) {
        return objectMapper.writeValueAsBytes(Map.of("data", disputes.stream().map(this::resource).toList()));
    }
}
