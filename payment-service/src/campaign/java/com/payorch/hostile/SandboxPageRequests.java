package com.payorch.hostile;

import static com.payorch.hostile.HostileRequests.escape;

import com.payorch.hostile.HostileRequest.Category;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The sandbox's 3-D Secure page, `/sandbox/authenticate/{chargeId}` (HTML for the customer's browser, no API key):
 * views of it for any charge id, and decisions posted with forged, mismatched or malformed tokens and decisions. The
 * generator knows the sandbox secret (it is the test's) but never signs a token for the charge that waits: only a
 * token signed for another charge, or one signed for the completed payment's charge, which may not be decided any
 * more (409, "nothing was changed").
 */
final class SandboxPageRequests {

    private static final String PATH = "/sandbox/authenticate/";
    private static final Base64.Encoder TOKEN_BASE64 = Base64.getUrlEncoder().withoutPadding();

    private final HostileRequests.Targets t;
    private final V3Targets v;

    SandboxPageRequests(HostileRequests.Targets targets) {
        this.t = targets;
        this.v = targets.v3();
    }

    HostileRequest request(long index, Random r) {
        return switch (r.nextInt(10)) {
            case 0, 1 -> view(index, r);
            case 2 -> decisionOnSettledCharge(index, r);
            case 3 -> otherMethod(index, r);
            default -> forgedDecision(index, r);
        };
    }

    private HostileRequest view(long index, Random r) {
        String chargeId = List.of(v.waitingCharge(), v.settledCharge(), "ch_unknown" + index, "ch_" + "x".repeat(5000),
                "%00", "ch_%C0%80", "..", "%2e%2e", v.waitingCharge().toUpperCase(java.util.Locale.ROOT),
                v.waitingCharge() + "%20", "ch_\u00e9", "", "*", "%3Cscript%3E", t.completedPayment())
                .get(r.nextInt(15));
        String query = r.nextInt(4) == 0 ? "?token=" + forgedToken(r) + "&decision=approve" : "";
        HostileRequest request = new HostileRequest(index, Category.SANDBOX_PAGE, "view " + escape(chargeId), "GET",
                PATH + chargeId + query);
        request.closeAfter = chargeId.length() > 4000;
        return request;
    }

    /** A form for the waiting charge whose token was not issued for it, or whose decision or encoding is bad. */
    private HostileRequest forgedDecision(long index, Random r) {
        String token = forgedToken(r);
        String decision = List.of("approve", "decline", "APPROVE", "", "maybe", "approve%00", "approve+",
                "approve&decision=decline", "%E2%80%AEapprove").get(r.nextInt(9));
        String form = switch (r.nextInt(8)) {
            case 0 -> "decision=" + decision;
            case 1 -> "token=" + encode(token);
            case 2 -> "token=" + encode(token) + "&decision=" + decision + "&token=" + encode(token);
            case 3 -> "token=%zz&decision=" + decision;
            case 4 -> "token=" + encode(token) + "&decision=" + decision + "&" + "a=b&".repeat(r.nextInt(5000));
            case 5 -> "token&decision&=&&==%";
            default -> "token=" + encode(token) + "&decision=" + decision;
        };
        String type = List.of("application/x-www-form-urlencoded", "application/x-www-form-urlencoded",
                "application/x-www-form-urlencoded; charset=ISO-8859-1", "application/json", "text/plain",
                "multipart/form-data; boundary=x", "application/x-www-form-urlencoded; charset=nonsense")
                .get(r.nextInt(7));
        HostileRequest request = new HostileRequest(index, Category.SANDBOX_PAGE, "decide the waiting charge: "
                + escape(form.length() > 80 ? form.substring(0, 80) + "…" : form) + " as " + type, "POST",
                PATH + v.waitingCharge()).header("Content-Type", type);
        if (r.nextInt(10) == 0) {
            form = form + "&pad=" + "x".repeat(64 * 1024 + r.nextInt(512 * 1024));
            request.closeAfter = true;
        }
        return request.body(form.getBytes(StandardCharsets.UTF_8));
    }

    /** A token signed correctly, for the completed payment's charge, which no longer waits: 409, nothing changed. */
    private HostileRequest decisionOnSettledCharge(long index, Random r) {
        String token = signedToken(t.sandboxSecret(), v.settledCharge(), nonce(r));
        String decision = r.nextBoolean() ? "approve" : "decline";
        return new HostileRequest(index, Category.SANDBOX_PAGE, decision + " the settled charge with a token signed"
                + " for it", "POST", PATH + v.settledCharge())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body(("token=" + encode(token) + "&decision=" + decision).getBytes(StandardCharsets.UTF_8));
    }

    private HostileRequest otherMethod(long index, Random r) {
        String method = List.of("PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE").get(r.nextInt(6));
        HostileRequest request = new HostileRequest(index, Category.SANDBOX_PAGE, method + " the page", method,
                PATH + v.waitingCharge());
        if (!method.equals("HEAD") && !method.equals("OPTIONS") && !method.equals("TRACE")) {
            request.header("Content-Type", "application/x-www-form-urlencoded")
                    .body(("token=" + encode(forgedToken(r)) + "&decision=approve").getBytes(StandardCharsets.UTF_8));
        }
        request.closeAfter = method.equals("TRACE");
        return request;
    }

    /** Never a token the waiting charge would take. */
    private String forgedToken(Random r) {
        String nonce = nonce(r);
        return switch (r.nextInt(10)) {
            case 0 -> "";
            case 1 -> ".";
            case 2 -> nonce + ".";
            case 3 -> "." + mac(t.sandboxSecret(), v.waitingCharge(), nonce);
            // issued for another charge
            case 4 -> nonce + "." + mac(t.sandboxSecret(), v.settledCharge(), nonce);
            // the MAC of another nonce
            case 5 -> nonce + "." + mac(t.sandboxSecret(), v.waitingCharge(), nonce + "x");
            // another secret
            case 6 -> nonce + "." + mac("whsec_someoneElsesSecret", v.waitingCharge(), nonce);
            case 7 -> nonce + ".!!!not base64!!!";
            case 8 -> nonce + "." + "A".repeat(201 + r.nextInt(4000));
            default -> "\u0000." + nonce;
        };
    }

    private static String nonce(Random r) {
        byte[] bytes = new byte[18];
        r.nextBytes(bytes);
        return TOKEN_BASE64.encodeToString(bytes);
    }

    /** A page token as the sandbox issues it for the charge (SandboxPageTokens): `<nonce>.<MAC>`. */
    static String signedToken(String secret, String chargeId, String nonce) {
        return nonce + "." + mac(secret, chargeId, nonce);
    }

    /** HMAC-SHA256 over the charge id and the nonce, keyed with the sandbox's webhook secret. */
    private static String mac(String secret, String chargeId, String nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return TOKEN_BASE64.encodeToString(mac.doFinal(("sandbox-page." + chargeId + "." + nonce)
                    .getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
