package com.payorch.idempotency;

import java.util.Map;

/** A response as first sent, kept with its key so a replay is byte-for-byte the same. */
public record StoredResponse(int status, Map<String, String> headers, byte[] body, boolean replayed) {

    public StoredResponse asReplay() {
        return new StoredResponse(status, headers, body, true);
    }
}
