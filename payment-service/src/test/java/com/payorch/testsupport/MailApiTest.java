package com.payorch.testsupport;

import com.payorch.confirmations.ConfirmationFaults;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The service with a real SMTP server ({@link TestMailServer}) and its own schema in the test database. The schema
 * matters: every cached test context runs an outbox relay, and a relay of a context without a mail server would
 * otherwise take these tests' events and log their confirmations instead of sending them. {@link ConfirmationFaults}
 * is in every such context (off unless a test arms it), so the mail tests share one context.
 */
@Import(ConfirmationFaults.class)
@TestPropertySource(properties = "spring.mail.host=127.0.0.1")
@OwnSchema("mail_tests")
public abstract class MailApiTest extends OutboxApiTest {

    @DynamicPropertySource
    static void mailServer(DynamicPropertyRegistry registry) {
        registry.add("spring.mail.port", TestMailServer::port);
    }
}
