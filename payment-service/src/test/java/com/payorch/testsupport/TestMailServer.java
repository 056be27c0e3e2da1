package com.payorch.testsupport;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.List;

/** One GreenMail SMTP server per test JVM, on a free port, started on first use (like {@link TestDatabase}). */
public final class TestMailServer {

    private TestMailServer() {
    }

    public static int port() {
        return Started.SERVER.getSmtp().getPort();
    }

    /** Every message received so far addressed (To) to `recipient`. */
    public static List<MimeMessage> messagesTo(String recipient) {
        return Arrays.stream(Started.SERVER.getReceivedMessages())
                .filter(message -> {
                    try {
                        return Arrays.stream(message.getRecipients(Message.RecipientType.TO))
                                .anyMatch(address -> address.toString().equalsIgnoreCase(recipient));
                    } catch (MessagingException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
    }

    public static MimeMessage[] allMessages() {
        return Started.SERVER.getReceivedMessages();
    }

    private static GreenMail start() {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        GreenMail server = new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "test-mail-server-stop"));
        return server;
    }

    private static final class Started {
        static final GreenMail SERVER = start();
    }
}
