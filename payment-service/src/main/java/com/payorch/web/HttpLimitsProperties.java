package com.payorch.web;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code payments.http.*}: what the HTTP server accepts from a client before any of the service's code runs. Every
 * refusal is a problem response (docs/api.md): 414 {@code uri_too_long}, 431 {@code request_header_too_large},
 * 408 {@code request_timeout}, 400 {@code invalid_request} for anything else that is not valid HTTP/1.1. These keys
 * win over Spring Boot's {@code server.max-http-request-header-size} and {@code server.netty.max-initial-line-length}.
 *
 * @param maxRequestLine       The longest request line (method, target with its query, version) accepted; longer:
 *                             414 {@code uri_too_long}. Default 4KB, Reactor Netty's own.
 * @param maxHeaderSize        The largest header block (all header lines together) accepted; larger: 431
 *                             {@code request_header_too_large}. Default 8KB, Reactor Netty's own.
 * @param requestHeaderTimeout How long a client may take from the first byte of a request to the end of its header
 *                             block; slower (a "slowloris" trickling headers): 408 {@code request_timeout} and the
 *                             connection is closed. An idle keep-alive connection (no byte of a next request) is not
 *                             timed by this but by {@code server.netty.idle-timeout}.
 * @param requestBodyTimeout   How long a client may take from the end of the headers to the end of the body; slower:
 *                             408 {@code request_timeout} (when no answer was started yet) and the connection is
 *                             closed.
 * @param maxInFlight          The most API and webhook requests (paths under {@code /v1/}) one instance works on at
 *                             once; one more is answered 503 {@code service_unavailable} with {@code Retry-After: 1}
 *                             before anything of it is read or done, so an overloaded instance answers quickly at its
 *                             peak rate instead of queueing every request until clients time out. {@code 0}: no limit.
 */
@ConfigurationProperties("payments.http")
public record HttpLimitsProperties(@DefaultValue("4KB") DataSize maxRequestLine,
                                   @DefaultValue("8KB") DataSize maxHeaderSize,
                                   @DefaultValue("PT10S") Duration requestHeaderTimeout,
                                   @DefaultValue("PT30S") Duration requestBodyTimeout,
                                   @DefaultValue("256") int maxInFlight) {

    public HttpLimitsProperties {
        if (maxRequestLine.toBytes() < 256 || maxRequestLine.toBytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("payments.http.max-request-line must be between 256B and 2GB");
        }
        if (maxHeaderSize.toBytes() < 1024 || maxHeaderSize.toBytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("payments.http.max-header-size must be between 1KB and 2GB");
        }
        if (requestHeaderTimeout.isNegative() || requestHeaderTimeout.isZero()
                || requestBodyTimeout.isNegative() || requestBodyTimeout.isZero()) {
            throw new IllegalArgumentException("payments.http.request-header-timeout and request-body-timeout"
                    + " must be positive");
        }
        if (maxInFlight < 0) {
            throw new IllegalArgumentException("payments.http.max-in-flight must be 0 (no limit) or positive");
        }
    }
}
