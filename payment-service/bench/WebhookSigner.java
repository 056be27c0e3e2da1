import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Pre-signs gateway webhooks for the benchmark, because wrk's LuaJIT has no HMAC. JDK only; run it with
 * {@code java WebhookSigner.java <secret> <in> <out> <id-prefix>}.
 *
 * <p>Input: one payment per line, {@code paymentId TAB amount TAB currency TAB chargeId} (psql -At -F tab; the chargeId
 * is the sandbox charge of the payment's latest attempt, which the webhook must name). Output: one webhook per
 * line, {@code webhook-id TAB webhook-timestamp TAB webhook-signature TAB body}, where the body is a
 * {@code payment.succeeded} for that payment and the signature is the Standard Webhooks {@code v1,<base64 HMAC-SHA256>}
 * over {@code <id>.<timestamp>.<body>}, keyed with the base64-decoded part of the {@code whsec_} secret. All lines carry
 * the current time: the service accepts them for 300 s.
 */
public class WebhookSigner {

    public static void main(String[] args) throws Exception {
        if (args.length != 4 && args.length != 5) {
            System.err.println("usage: java WebhookSigner.java <whsec_secret> <payments.tsv> <out.tsv> <id-prefix>"
                    + " [<type>]");
            System.exit(2);
        }
        String secret = args[0];
        // The type signed: payment.succeeded (default), or payment.authorized for the holds of the capture scenario.
        String type = args.length > 4 ? args[4] : "payment.succeeded";
        if (!secret.startsWith("whsec_")) {
            throw new IllegalArgumentException("the secret must start with whsec_");
        }
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
        String timestamp = Long.toString(System.currentTimeMillis() / 1000);
        int count = 0;
        try (BufferedReader in = Files.newBufferedReader(Path.of(args[1]), StandardCharsets.UTF_8);
             BufferedWriter out = Files.newBufferedWriter(Path.of(args[2]), StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t");
                if (f.length != 4) {
                    throw new IOException("expected paymentId TAB amount TAB currency TAB chargeId, got: " + line);
                }
                count++;
                String id = args[3] + "-" + count;
                String body = "{\"type\":\"" + type + "\",\"data\":{\"paymentId\":\"" + f[0] + "\",\"chargeId\":\""
                        + f[3].trim() + "\",\"amount\":"
                        + Long.parseLong(f[1].trim()) + ",\"currency\":\"" + f[2].trim() + "\"}}";
                byte[] signed = (id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8);
                String signature = "v1," + Base64.getEncoder().encodeToString(mac.doFinal(signed));
                out.write(id + "\t" + timestamp + "\t" + signature + "\t" + body + "\n");
            }
        }
        System.err.println("signed " + count + " webhooks at " + timestamp);
    }
}
