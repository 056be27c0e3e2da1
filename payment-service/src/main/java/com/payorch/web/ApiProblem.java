package com.payorch.web;

import java.util.Map;

/** A refusal that becomes an RFC 9457 problem response. Thrown by any layer; rendered by {@link ProblemResponses}. */
public class ApiProblem extends RuntimeException {

    private final ProblemCode problemCode;
    private final Map<String, String> headers;

    public ApiProblem(ProblemCode problemCode, String detail) {
        this(problemCode, detail, Map.of());
    }

    public ApiProblem(ProblemCode problemCode, String detail, Map<String, String> headers) {
        super(detail, null, false, false);
        this.problemCode = problemCode;
        this.headers = Map.copyOf(headers);
    }

    public ProblemCode problemCode() {
        return problemCode;
    }

    public String detail() {
        return getMessage();
    }

    public Map<String, String> headers() {
        return headers;
    }

    public static ApiProblem invalidRequest(String detail) {
        return new ApiProblem(ProblemCode.INVALID_REQUEST, detail);
    }

    public static ApiProblem notFound(String detail) {
        return new ApiProblem(ProblemCode.NOT_FOUND, detail);
    }
}
