package com.payorch.console.api;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.reactive.result.view.Rendering;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebInputException;

/**
 * Errors inside the console's controllers become HTML pages (the API's problem+json stays for /v1): bad input 400,
 * anything unexpected 500 without details (logged).
 */
@ControllerAdvice(basePackageClasses = ConsoleErrors.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class ConsoleErrors {

    private static final Logger log = LoggerFactory.getLogger(ConsoleErrors.class);

    @ExceptionHandler(ServerWebInputException.class)
    Rendering badInput(ServerWebInputException e) {
        return page(HttpStatus.BAD_REQUEST, "The request is not valid: a parameter is missing or malformed.");
    }

    @ExceptionHandler(ResponseStatusException.class)
    Rendering status(ResponseStatusException e) {
        if (e.getStatusCode().value() == 404) {
            return ConsolePageController.notFound("page");
        }
        return page(HttpStatus.valueOf(e.getStatusCode().value()), "The request could not be served.");
    }

    @ExceptionHandler(Exception.class)
    Rendering unexpected(Exception e) {
        log.error("Console page failed", e);
        return page(HttpStatus.INTERNAL_SERVER_ERROR, "Something went wrong; it has been logged. Try again.");
    }

    private static Rendering page(HttpStatus status, String message) {
        return Rendering.view("console/error").modelAttribute("message", message).status(status).build();
    }
}
