package com.payorch.web;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Reads a raw request body, refusing more than the contract's 64 KiB however the body is framed. */
public final class RequestBodies {

    public static final int MAX_BYTES = 64 * 1024;

    private RequestBodies() {
    }

    /** The body's bytes, or an empty array when there is none. */
    public static Mono<byte[]> read(ServerWebExchange exchange) {
        long declared = exchange.getRequest().getHeaders().getContentLength();
        if (declared > MAX_BYTES) {
            return Mono.error(new ApiProblem(ProblemCode.PAYLOAD_TOO_LARGE, "The request body exceeds 64 KiB."));
        }
        return DataBufferUtils.join(exchange.getRequest().getBody(), MAX_BYTES)
                .map(RequestBodies::drain)
                .defaultIfEmpty(new byte[0]);
    }

    private static byte[] drain(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }
}
