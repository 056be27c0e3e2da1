package com.payorch.confirmations;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.JavaMailSenderImpl;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Hands a confirmation to the mail server (`spring.mail.host`), or, when none is configured, writes it to the log,
 * which the contract counts as handed over. Logs show the recipient masked (g***@example.com), never in full.
 */
@Component
class ConfirmationMailer {

    enum Channel { SMTP, LOG }

    private static final Logger log = LoggerFactory.getLogger(ConfirmationMailer.class);
    private static final String DEFAULT_TIMEOUT_MILLIS = "10000";

    private final JavaMailSender sender;

    ConfirmationMailer(ObjectProvider<JavaMailSender> senders) {
        this.sender = senders.getIfAvailable();
        if (sender instanceof JavaMailSenderImpl impl) {
            limitWaits(impl.getJavaMailProperties());
        }
    }

    Mono<Channel> send(ConfirmationMessage message) {
        if (sender == null) {
            return Mono.fromSupplier(() -> {
                log.info("No mail server configured: booking confirmation for booking {} (event {}, payment {},"
                                + " merchant {}) to {}, Message-ID {}, written here instead.\nSubject: {}\n{}",
                        message.bookingId(), message.eventId(), message.paymentId(), message.merchantId(),
                        message.maskedRecipient(), message.messageId(), message.subject(), message.text());
                return Channel.LOG;
            });
        }
        // JavaMail blocks on the socket: never on an event-loop thread.
        return Mono.fromCallable(() -> {
                    sender.send(mimeMessage(message));
                    log.info("Sent booking confirmation for booking {} (event {}, payment {}, merchant {}) to {},"
                                    + " Message-ID {}", message.bookingId(), message.eventId(), message.paymentId(),
                            message.merchantId(), message.maskedRecipient(), message.messageId());
                    return Channel.SMTP;
                })
                .subscribeOn(Schedulers.boundedElastic());
    }

    private MimeMessage mimeMessage(ConfirmationMessage message) throws MessagingException {
        MimeMessage mime = new MimeMessageWithFixedId(sender.createMimeMessage().getSession(), message.messageId());
        MimeMessageHelper helper = new MimeMessageHelper(mime, StandardCharsets.UTF_8.name());
        helper.setFrom(message.from());
        helper.setTo(message.recipient());
        helper.setSubject(message.subject());
        helper.setText(message.text());
        return mime;
    }

    /** JavaMail waits forever by default; a hung send would outlive the claim on the confirmation. */
    private static void limitWaits(Properties javaMail) {
        for (String protocol : new String[] {"smtp", "smtps"}) {
            for (String wait : new String[] {"connectiontimeout", "timeout", "writetimeout"}) {
                javaMail.putIfAbsent("mail." + protocol + "." + wait, DEFAULT_TIMEOUT_MILLIS);
            }
        }
    }

    /** JavaMail replaces Message-ID on every saveChanges(); this one keeps ours. */
    private static final class MimeMessageWithFixedId extends MimeMessage {

        private final String messageId;

        MimeMessageWithFixedId(Session session, String messageId) {
            super(session);
            this.messageId = messageId;
        }

        @Override
        protected void updateMessageID() throws MessagingException {
            setHeader("Message-ID", messageId);
        }
    }
}
