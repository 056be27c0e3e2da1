package com.payorch.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.BodyInserters;

/** A signed-in console session over real HTTP: its cookie, and the CSRF token and action key its pages carry. */
record ConsoleSession(WebTestClient client, String cookie) {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
    private static final Pattern ACTION_KEY = Pattern.compile("name=\"actionKey\" value=\"(ca_[0-9a-f]{32})\"");

    /** Signs in through the login form (its CSRF token included), as a browser would. */
    static ConsoleSession signIn(WebTestClient client, String user, String password) {
        var loginPage = client.get().uri("/console/login").exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult();
        ResponseCookie anonymous = loginPage.getResponseCookies().getFirst("SESSION");
        assertThat(anonymous).as("the login page starts a session for its CSRF token").isNotNull();
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("username", user);
        form.add("password", password);
        form.add("_csrf", find(CSRF, loginPage.getResponseBody()));
        var signedIn = client.post().uri("/console/login").cookie("SESSION", anonymous.getValue())
                .contentType(MediaType.APPLICATION_FORM_URLENCODED).body(BodyInserters.fromFormData(form))
                .exchange().expectStatus().isFound()
                .expectHeader().location("/console")
                .expectBody().returnResult();
        ResponseCookie session = signedIn.getResponseCookies().getFirst("SESSION");
        return new ConsoleSession(client, session != null ? session.getValue() : anonymous.getValue());
    }

    WebTestClient.ResponseSpec get(String path) {
        return client.get().uri(path).cookie("SESSION", cookie).accept(MediaType.TEXT_HTML).exchange();
    }

    String page(String path) {
        return get(path).expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
    }

    /** Posts a form with the token of the page it came from, or without one when {@code withCsrf} is false. */
    WebTestClient.ResponseSpec post(String path, MultiValueMap<String, String> form, String fromPage,
                                    boolean withCsrf) {
        MultiValueMap<String, String> body = new LinkedMultiValueMap<>(form);
        if (withCsrf) {
            body.add("_csrf", find(CSRF, fromPage));
        }
        return client.post().uri(path).cookie("SESSION", cookie)
                .contentType(MediaType.APPLICATION_FORM_URLENCODED).body(BodyInserters.fromFormData(body))
                .exchange();
    }

    static String actionKey(String confirmPage) {
        return find(ACTION_KEY, confirmPage);
    }

    static String find(Pattern pattern, String html) {
        Matcher matcher = pattern.matcher(html);
        assertThat(matcher.find()).as("page has " + pattern).isTrue();
        return matcher.group(1);
    }

    static HttpStatus seeOther() {
        return HttpStatus.SEE_OTHER;
    }
}
