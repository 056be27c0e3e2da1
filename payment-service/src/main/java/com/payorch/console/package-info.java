/**
 * The operations console at {@code /console}: server-rendered pages (Thymeleaf, reactive) for the people who run
 * the platform. Its own form-login security chain ({@link com.payorch.console.ConsoleSecurityConfiguration}), its
 * own read model over the other features' tables ({@link com.payorch.console.ConsoleReadModel}, read only), and
 * actions that go through the same idempotent flows as the API ({@link com.payorch.console.ConsoleActions}).
 * Controllers live in {@code console.api}.
 */
package com.payorch.console;
