package com.payorch.web;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderResultProvider;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import reactor.netty.NettyPipeline;
import tools.jackson.databind.ObjectMapper;

/**
 * The HTTP server's own limits, answered as problems instead of Reactor Netty's empty answers: request line and header
 * block sizes ({@link HttpLimitsProperties}), requests the HTTP/1.1 decoder refuses (bad framing, bad header bytes),
 * and clients too slow to send their headers or body (408). Runs after Spring Boot's own server customizer, so its
 * sizes win.
 *
 * <p>Two Netty handlers per connection: one in front of the HTTP codec notices the first bytes of a request (and
 * starts the header clock), one behind it sees the decoded request (stops it, starts the body clock) and rewrites
 * any error answer that has no body and no content type (Reactor Netty's answer to a decoding failure) into a problem.
 */
@Component
public class HttpLimits implements WebServerFactoryCustomizer<NettyReactiveWebServerFactory>, Ordered {

    private static final Logger log = LoggerFactory.getLogger(HttpLimits.class);

    /** Fired by Reactor Netty (1.3.6 and later) when a request's operations terminated. */
    private static final String TERMINATED_EVENT = "reactor.netty.http.server.HttpServerOperationsTerminatedEvent";

    private final HttpLimitsProperties limits;
    private final ObjectMapper objectMapper;

    public HttpLimits(HttpLimitsProperties limits, ObjectMapper objectMapper) {
        this.limits = limits;
        this.objectMapper = objectMapper;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE; // after Boot's NettyReactiveWebServerFactoryCustomizer (order 0)
    }

    @Override
    public void customize(NettyReactiveWebServerFactory factory) {
        factory.addServerCustomizers(server -> server
                .httpRequestDecoder(spec -> spec.maxInitialLineLength((int) limits.maxRequestLine().toBytes())
                        .maxHeaderSize((int) limits.maxHeaderSize().toBytes()))
                .doOnChannelInit((observer, channel, remote) -> {
                    ChannelPipeline pipeline = channel.pipeline();
                    if (pipeline.get(NettyPipeline.HttpCodec) == null) {
                        return;
                    }
                    Guard guard = new Guard();
                    pipeline.addBefore(NettyPipeline.HttpCodec, "payorch.requestStart", guard.requestStart);
                    pipeline.addAfter(NettyPipeline.HttpCodec, "payorch.httpLimits", guard);
                }));
    }

    /** One connection's clocks and the rewriting of bare error answers; every method runs on its event loop. */
    private final class Guard extends ChannelDuplexHandler {

        private @Nullable ChannelHandlerContext ctx;
        private @Nullable ScheduledFuture<?> clock;
        /** Bytes of a request arrived whose header block is not complete yet. */
        private boolean headersPending;
        /** The request's headers came, its last content not yet. */
        private boolean bodyPending;
        /** An answer was started and not finished. */
        private boolean answering;
        /** The request was aborted here (a broken or late body, late headers): further input is dropped. */
        private boolean bodyTimedOut;
        /** An answer's first part went out and its last not yet. */
        private boolean answerStarted;
        /** Why the HTTP decoder refused the current request, if it did. */
        private @Nullable Throwable decodingFailure;
        /** A request went to Reactor Netty whose operations have not terminated yet. */
        private boolean previousNotTerminated;
        /** The next request's messages, held until the previous one's operations terminated. */
        private final ArrayDeque<Object> held = new ArrayDeque<>();

        final ChannelInboundHandlerAdapter requestStart = new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext context, Object msg) {
                if (msg instanceof ByteBuf bytes && bytes.isReadable() && !headersPending && !bodyPending
                        && !answering && !bodyTimedOut) {
                    headersPending = true;
                    startClock(limits.requestHeaderTimeout(), Guard.this::headersTooSlow);
                }
                context.fireChannelRead(msg);
            }
        };

        @Override
        public void handlerAdded(ChannelHandlerContext context) {
            this.ctx = context;
        }

        @Override
        public void channelRead(ChannelHandlerContext context, Object msg) {
            if (bodyTimedOut) {
                ReferenceCountUtil.release(msg);
                return;
            }
            if (!(msg instanceof HttpRequest) && msg instanceof DecoderResultProvider decoded
                    && decoded.decoderResult().isFailure()) {
                // A broken body (a bad chunk size, say). Passed on, Reactor Netty would answer 400 but end the body
                // normally, and the application would act on what it read so far (an empty refund body refunds
                // everything): the request is answered and the connection closed here, so the body fails.
                ReferenceCountUtil.release(msg);
                abort(ProblemCode.INVALID_REQUEST,
                        "The request body is not valid HTTP/1.1 framing (a chunk size or length is wrong).");
                return;
            }
            if (msg instanceof HttpRequest) {
                headersPending = false;
                answering = true;
                bodyPending = !(msg instanceof LastHttpContent);
                stopClock();
                if (bodyPending) {
                    startClock(limits.requestBodyTimeout(), this::bodyTooSlow);
                }
            } else if (msg instanceof LastHttpContent) {
                bodyPending = false;
                stopClock();
            }
            if (!held.isEmpty() || (msg instanceof HttpRequest && previousNotTerminated)) {
                // Reactor Netty 1.3.8 buffers a keep-alive request that arrives before the previous request's
                // operations terminated, and then sometimes never reads or answers it (reactor-netty #4361, #4347).
                // Held here instead, it reaches Reactor Netty only once the previous one is over.
                held.add(msg);
                return;
            }
            forward(context, msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
            super.userEventTriggered(context, event);
            if (event.getClass().getName().equals(TERMINATED_EVENT)) {
                releaseHeld(context);
            }
        }

        /** The previous request is over: the held messages go on, up to the next request's end. */
        private void releaseHeld(ChannelHandlerContext context) {
            previousNotTerminated = false;
            while (!held.isEmpty() && !(previousNotTerminated && held.peek() instanceof HttpRequest)) {
                forward(context, held.poll());
            }
        }

        private void forward(ChannelHandlerContext context, Object msg) {
            if (msg instanceof HttpRequest request) {
                previousNotTerminated = true;
                decodingFailure = request.decoderResult().isFailure() ? request.decoderResult().cause() : null;
            } else if (msg instanceof DecoderResultProvider decoded && decoded.decoderResult().isFailure()) {
                decodingFailure = decoded.decoderResult().cause();
            }
            context.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext context, Object msg, ChannelPromise promise) {
            if (bodyTimedOut && msg instanceof HttpObject) {
                // the request was aborted and answered here: the application's late answer goes nowhere
                ReferenceCountUtil.release(msg);
                promise.setSuccess();
                return;
            }
            if (msg instanceof HttpResponse) {
                answerStarted = true;
            }
            Object out = msg;
            if (msg instanceof FullHttpResponse response && isBareError(response)) {
                out = problem(response);
            }
            if (out instanceof LastHttpContent) {
                answering = false;
                answerStarted = false;
                if (!held.isEmpty()) {
                    // should the termination event never come, the held request still gets its turn
                    context.executor().schedule(() -> {
                        if (!held.isEmpty() && previousNotTerminated && context.channel().isActive()) {
                            log.debug("No termination event 1 s after an answer: releasing a held request");
                            releaseHeld(context);
                        }
                    }, 1, TimeUnit.SECONDS);
                }
            }
            context.write(out, promise);
        }

        @Override
        public void channelInactive(ChannelHandlerContext context) throws Exception {
            stopClock();
            held.forEach(ReferenceCountUtil::release);
            held.clear();
            super.channelInactive(context);
        }

        private void startClock(Duration timeout, Runnable expired) {
            stopClock();
            if (ctx != null) {
                clock = ctx.executor().schedule(expired, timeout.toNanos(), TimeUnit.NANOSECONDS);
            }
        }

        private void stopClock() {
            if (clock != null) {
                clock.cancel(false);
                clock = null;
            }
        }

        /** Headers still incomplete: no request reached the application, so this handler answers and closes. */
        private void headersTooSlow() {
            clock = null;
            if (ctx == null || !headersPending || !ctx.channel().isActive()) {
                return;
            }
            log.debug("Closing a connection from {}: request headers not complete within {}",
                    ctx.channel().remoteAddress(), limits.requestHeaderTimeout());
            bodyTimedOut = true; // drop whatever still comes
            FullHttpResponse timeout = problemResponse(HttpVersion.HTTP_1_1, ProblemCode.REQUEST_TIMEOUT,
                    timeoutDetail());
            timeout.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(timeout).addListener(ChannelFutureListener.CLOSE);
        }

        /** Body incomplete: the request is answered 408 and the connection closed, so the body fails. */
        private void bodyTooSlow() {
            clock = null;
            if (ctx == null || !bodyPending || !ctx.channel().isActive()) {
                return;
            }
            log.debug("Closing a connection from {}: request body not complete within {}",
                    ctx.channel().remoteAddress(), limits.requestBodyTimeout());
            bodyPending = false;
            abort(ProblemCode.REQUEST_TIMEOUT, timeoutDetail());
        }

        /**
         * Ends the current request before its body is complete: its problem is sent (unless an answer was already
         * started) and the connection closed. The application sees its request body fail (the connection closed),
         * never a body that ends early; whatever still comes in is dropped.
         */
        private void abort(ProblemCode code, String detail) {
            if (ctx == null) {
                return;
            }
            bodyTimedOut = true;
            stopClock();
            held.forEach(ReferenceCountUtil::release);
            held.clear();
            if (answerStarted || !answering) {
                ctx.close(); // an answer is under way or was given already: only the close is left to do
                return;
            }
            answerStarted = true;
            FullHttpResponse problem = problemResponse(HttpVersion.HTTP_1_1, code, detail);
            problem.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(problem).addListener(ChannelFutureListener.CLOSE);
        }

        private boolean isBareError(FullHttpResponse response) {
            return response.status().code() >= 400 && !response.content().isReadable()
                    && !response.headers().contains(HttpHeaderNames.CONTENT_TYPE);
        }

        private Object problem(FullHttpResponse bare) {
            ProblemCode code = decodingFailure instanceof TooLongHttpLineException ? ProblemCode.URI_TOO_LONG
                    : decodingFailure instanceof TooLongHttpHeaderException ? ProblemCode.REQUEST_HEADER_TOO_LARGE
                    : switch (bare.status().code()) {
                case 400 -> ProblemCode.INVALID_REQUEST;
                case 408 -> ProblemCode.REQUEST_TIMEOUT;
                case 413 -> ProblemCode.PAYLOAD_TOO_LARGE;
                case 414 -> ProblemCode.URI_TOO_LONG;
                case 431 -> ProblemCode.REQUEST_HEADER_TOO_LARGE;
                default -> null;
            };
            if (code == null) {
                return bare;
            }
            String detail = switch (code) {
                case URI_TOO_LONG -> "The request line is longer than " + limits.maxRequestLine().toBytes()
                        + " bytes.";
                case REQUEST_HEADER_TOO_LARGE -> "The request's header fields are larger than "
                        + limits.maxHeaderSize().toBytes() + " bytes.";
                case PAYLOAD_TOO_LARGE -> "The request body exceeds 64 KiB.";
                case REQUEST_TIMEOUT -> timeoutDetail();
                default -> "The request is not valid HTTP/1.1 (its request line, a header or its framing).";
            };
            if (decodingFailure != null) {
                log.debug("HTTP decoding failure answered {}: {}", code.status(), decodingFailure.toString());
            }
            FullHttpResponse problem = problemResponse(bare.protocolVersion(), code, detail);
            problem.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            bare.release();
            return problem;
        }

        private String timeoutDetail() {
            return "The request was not received in time (headers within " + limits.requestHeaderTimeout().toMillis()
                    + " ms, the body within " + limits.requestBodyTimeout().toMillis() + " ms).";
        }
    }

    private FullHttpResponse problemResponse(HttpVersion version, ProblemCode code, String detail) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", code.type());
        body.put("title", code.title());
        body.put("status", code.status().value());
        body.put("detail", detail);
        body.put("code", code.code());
        byte[] bytes = objectMapper.writeValueAsBytes(body);
        FullHttpResponse response = new DefaultFullHttpResponse(version,
                HttpResponseStatus.valueOf(code.status().value()), Unpooled.wrappedBuffer(bytes));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json");
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        return response;
    }
}
