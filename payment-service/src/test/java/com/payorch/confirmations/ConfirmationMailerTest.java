package com.payorch.confirmations;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.JavaMailSenderImpl;

/** JavaMail waits forever by default: every SMTP wait gets a bound unless spring.mail.properties sets one. */
class ConfirmationMailerTest {

    @Test
    void everySmtpWaitIsBoundedByTenSecondsByDefault() {
        JavaMailSenderImpl sender = new JavaMailSenderImpl();

        new ConfirmationMailer(provider(sender));

        for (String protocol : new String[] {"smtp", "smtps"}) {
            assertThat(sender.getJavaMailProperties())
                    .containsEntry("mail." + protocol + ".connectiontimeout", "10000")
                    .containsEntry("mail." + protocol + ".timeout", "10000")
                    .containsEntry("mail." + protocol + ".writetimeout", "10000");
        }
    }

    @Test
    void configuredWaitsWin() {
        JavaMailSenderImpl sender = new JavaMailSenderImpl();
        sender.getJavaMailProperties().setProperty("mail.smtp.timeout", "2500");

        new ConfirmationMailer(provider(sender));

        assertThat(sender.getJavaMailProperties()).containsEntry("mail.smtp.timeout", "2500")
                .containsEntry("mail.smtp.connectiontimeout", "10000");
    }

    private static org.springframework.beans.factory.ObjectProvider<JavaMailSender> provider(JavaMailSender sender) {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        beans.registerSingleton("mailSender", sender);
        return beans.getBeanProvider(JavaMailSender.class);
    }
}
