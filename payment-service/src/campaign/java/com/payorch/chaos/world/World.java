package com.payorch.chaos.world;

import com.payorch.chaos.CampaignFacts;
import com.payorch.chaos.check.Checker;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.payorch.PaymentServiceApplication;
import com.payorch.chaos.workload.WorkloadTargets;
import com.payorch.fakes.FakeAdyen;
import com.payorch.fakes.FakeStripe;
import com.payorch.testsupport.PostgresPair;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The campaign's world, as real processes: PostgreSQL (its own process, {@link PostgresProcess}), the service
 * instances (each its own JVM on a fixed port, {@link ServiceProcess}), the Stripe and Adyen fakes, an SMTP server
 * (GreenMail), the merchants' webhook receiver, optionally a Kafka broker (KRaft, in this JVM), and a
 * {@link LinkProxy} on every link of every instance the nemesis may break: {@code iN.db}, {@code iN.stripe},
 * {@code iN.adyen}, {@code iN.smtp}.
 *
 * <p>Four merchants, one per route: {@code m_sandbox} (sandbox), {@code m_stripe} (stripe), {@code m_adyen}
 * (adyen), {@code m_failover} (stripe, then adyen). Every merchant gets webhooks at the receiver; every instance sends
 * confirmation e-mails; recovery and retry intervals are seconds, so that the recovery horizon is short.
 */
public final class World implements AutoCloseable {

    public static final String STRIPE_SECRET_KEY = "sk_test_51ChaosCampaignKeyDoNotLog000001";
    public static final String STRIPE_WEBHOOK_SECRET = "whsec_ChaosCampaignStripeEndpointSecret01";
    public static final String ADYEN_API_KEY = "AQE_ChaosCampaignAdyenKeyDoNotLog_0001";
    public static final String ADYEN_MERCHANT_ACCOUNT = "PayorchChaosECOM";
    public static final String ADYEN_HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    public static final String KAFKA_TOPIC = "payments.events";
    /** bcrypt of a throwaway password: the console user of application.yml must not keep its published hash. */
    private static final String OPERATOR_BCRYPT = "$2a$10$XXwYzh30fGVPiwp03I6WHeajyrozDPHFJDlydfBhgzXPq/mcoUN4e";

    public static final List<WorkloadTargets.Merchant> MERCHANTS = List.of(
            new WorkloadTargets.Merchant("m_sandbox", "sk_test_chaos_sandbox", "sandbox"),
            new WorkloadTargets.Merchant("m_stripe", "sk_test_chaos_stripe", "stripe"),
            new WorkloadTargets.Merchant("m_adyen", "sk_test_chaos_adyen", "adyen"),
            new WorkloadTargets.Merchant("m_failover", "sk_test_chaos_failover", "stripe,adyen"));

    /**
     * The instances' {@code payments.recovery.give-up-after}: short, so that an outage can outlast it (the nemesis's
     * {@code answers-lost-past-give-up} holds longer).
     */
    public static final Duration GIVE_UP_AFTER = Duration.ofSeconds(12);

    /** The instances' {@code payments.connectors.stripe.idempotency-key-lifetime}: short, so that keys expire. */
    public static final Duration STRIPE_KEY_LIFETIME = Duration.ofSeconds(20);

    /** When the fake Stripe forgets a key (nemesis {@code psp-forgets-keys}): above the lifetime, as Stripe's 24 h. */
    public static final Duration STRIPE_FORGETS_KEYS_AFTER = Duration.ofSeconds(30);

    /**
     * The instances' {@code payments.customer-action.expires-after}: short, so that a payment whose customer never
     * answers is cancelled by the expiry job within the run (the recovery horizon waits at least this long).
     */
    public static final Duration CUSTOMER_ACTION_EXPIRES_AFTER = Duration.ofSeconds(20);

    /** The links of one instance, in the order of {@link #LINKS}. */
    public static final List<String> LINKS = List.of("db", "stripe", "adyen", "smtp");

    /**
     * @param outDir where logs and the database's data go
     * @param instances how many service instances (3 in the campaign)
     * @param kafka whether to run a broker and publish events to it
     * @param jar the boot jar, or null to run the main class on this JVM's classpath
     * @param heap the instances' -Xmx, e.g. {@code 384m}
     * @param primaryAndStandby a primary and a synchronous standby of Debian's PostgreSQL ({@link PostgresPair}),
     *        the instances on a multi-host URL that targets the primary; false: one PostgreSQL
     *        ({@link PostgresProcess})
     */
    public record Config(Path outDir, int instances, boolean kafka, @Nullable Path jar, String heap,
                         boolean primaryAndStandby) {

        public Config(Path outDir, int instances, boolean kafka, @Nullable Path jar, String heap) {
            this(outDir, instances, kafka, jar, heap, false);
        }
    }

    private final Config config;
    private final String sandboxWebhookSecret = whsec();
    private final String merchantWebhookSecret = whsec();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Map<String, LinkProxy> links = new LinkedHashMap<>();
    private final List<ServiceProcess> instances = new ArrayList<>();
    private DatabaseServer postgres;
    private @Nullable PostgresPair pair;
    private FakeStripe stripe;
    private FakeAdyen adyen;
    private GreenMail mail;
    private MerchantReceiver receiver;
    private PspFaults pspFaults;
    private @Nullable EmbeddedKafkaKraftBroker kafka;
    private volatile boolean closed;

    private World(Config config) {
        this.config = config;
    }

    /** Starts everything and waits until every instance is ready; closes what it started if that fails. */
    public static World start(Config config) {
        World world = new World(config);
        try {
            world.startAll();
            return world;
        } catch (RuntimeException | Error e) {
            world.close();
            throw e;
        }
    }

    private void startAll() {
        try {
            Files.createDirectories(config.outDir());
            // A directory used before (the same seed again): a fresh cluster and fresh logs, nothing of the last run.
            for (String data : List.of("postgres", "pg-a", "pg-b")) {
                org.springframework.util.FileSystemUtils.deleteRecursively(config.outDir().resolve(data));
            }
            for (String old : List.of("postgres.log", "pg-a.log", "pg-b.log", "i1.log", "i2.log", "i3.log",
                    "faults.jsonl", "offending-history.jsonl", "failed-invariants.txt", "summary.json",
                    "failovers.json")) {
                Files.deleteIfExists(config.outDir().resolve(old));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (config.primaryAndStandby()) {
            pair = PostgresPair.start(config.outDir(), freePort(), freePort());
            postgres = new PrimaryOfPostgresPair(pair);
        } else {
            postgres = PostgresProcess.start(config.outDir().resolve("postgres"),
                    config.outDir().resolve("postgres.log"), freePort());
        }
        closeables.add(postgres);
        stripe = new FakeStripe(10_000).acceptKey(STRIPE_SECRET_KEY);
        closeables.add(stripe);
        adyen = new FakeAdyen().acceptKey(ADYEN_API_KEY);
        closeables.add(adyen);
        mail = new GreenMail(new ServerSetup(freePort(), "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        mail.start();
        closeables.add(mail::stop);
        receiver = MerchantReceiver.start(0);
        closeables.add(receiver);
        if (config.kafka()) {
            kafka = new EmbeddedKafkaKraftBroker(1, 3, KAFKA_TOPIC);
            kafka.afterPropertiesSet();
            EmbeddedKafkaKraftBroker broker = kafka;
            closeables.add(broker::destroy);
        }
        pspFaults = new PspFaults(new IdempotencyKeyMemory(STRIPE_FORGETS_KEYS_AFTER), this::chargeLate);
        int stripePort = portOf(stripe.baseUrl());
        int adyenPort = portOf(adyen.checkoutUrl());
        for (int i = 1; i <= config.instances(); i++) {
            String name = "i" + i;
            List<LinkProxy> db = databaseLinks(name);
            LinkProxy stripeLink = link(name + ".stripe", stripePort).keys(pspFaults.stripeKeys());
            LinkProxy adyenLink = link(name + ".adyen", adyenPort);
            LinkProxy smtp = link(name + ".smtp", mail.getSmtp().getPort());
            int port = freePort();
            List<String> arguments = new ArrayList<>(List.of("--server.port=" + port));
            arguments.addAll(arguments(db, stripeLink, adyenLink, smtp));
            ServiceProcess instance = new ServiceProcess(name, port, launch(), arguments,
                    config.outDir().resolve(name + ".log"));
            instances.add(instance);
            closeables.add(instance);
        }
        instances.forEach(ServiceProcess::start);
        writePids();
        List<CompletableFuture<Void>> ready = instances.stream()
                .map(instance -> CompletableFuture.runAsync(() -> instance.awaitReady(Duration.ofSeconds(180))))
                .toList();
        ready.forEach(CompletableFuture::join);
        writePids();
    }

    /**
     * The instance's links to the database: {@code iN.db}, or with a primary and a standby one to each,
     * {@code iN.db.a} and {@code iN.db.b} (the nemesis breaks both as {@code iN.db}, see {@link #linkGroup}).
     */
    private List<LinkProxy> databaseLinks(String instance) {
        if (pair == null) {
            return List.of(link(instance + ".db", postgres.port()));
        }
        List<Integer> ports = pair.ports();
        return List.of(link(instance + ".db.a", ports.get(0)), link(instance + ".db.b", ports.get(1)));
    }

    private LinkProxy link(String name, int targetPort) {
        LinkProxy proxy = LinkProxy.start(name, 0, targetPort);
        links.put(name, proxy);
        closeables.add(proxy);
        return proxy;
    }

    private List<String> launch() {
        List<String> launch = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + config.heap(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k"));
        if (config.jar() != null) {
            launch.addAll(List.of("-jar", config.jar().toString()));
        } else {
            launch.addAll(List.of("-cp", System.getProperty("java.class.path"),
                    PaymentServiceApplication.class.getName()));
        }
        return launch;
    }

    private List<String> arguments(List<LinkProxy> db, LinkProxy stripeLink, LinkProxy adyenLink,
                                   LinkProxy smtp) {
        List<String> args = new ArrayList<>(List.of(
                "--spring.r2dbc.url=" + r2dbcUrl(db),
                "--spring.r2dbc.username=postgres",
                "--spring.r2dbc.password=",
                "--spring.flyway.url=" + jdbcUrl(db),
                "--spring.flyway.user=postgres",
                "--spring.flyway.password=",
                "--payments.db.embedded=false",
                "--payments.allow-development-defaults=true",
                "--payments.console.users.operator.password-bcrypt=" + OPERATOR_BCRYPT,
                "--spring.lifecycle.timeout-per-shutdown-phase=5s",
                                // the gateways, through the links
                "--payments.gateway.sandbox.webhook-secret=" + sandboxWebhookSecret,
                "--payments.gateway.timeout=PT6S",
                "--payments.connectors.stripe.api-base=http://localhost:" + stripeLink.port(),
                "--payments.connectors.stripe.connect-timeout=PT2S",
                "--payments.connectors.stripe.read-timeout=PT4S",
                "--payments.connectors.adyen.checkout-url=http://localhost:" + adyenLink.port() + "/v71",
                "--payments.connectors.adyen.connect-timeout=PT2S",
                "--payments.connectors.adyen.read-timeout=PT4S",
                // e-mail, through the link
                "--spring.mail.host=localhost",
                "--spring.mail.port=" + smtp.port(),
                "--spring.mail.properties.mail.smtp.connectiontimeout=3000",
                "--spring.mail.properties.mail.smtp.timeout=3000",
                "--spring.mail.properties.mail.smtp.writetimeout=3000",
                "--payments.confirmations.claim-timeout=PT15S",
                // a short recovery horizon
                "--payments.recovery.pending-after=PT4S",
                "--payments.recovery.processing-after=PT8S",
                "--payments.recovery.interval=PT1S",
                "--payments.recovery.refund-pending-after=PT3S",
                "--payments.recovery.give-up-after=" + GIVE_UP_AFTER,
                "--payments.connectors.stripe.idempotency-key-lifetime=" + STRIPE_KEY_LIFETIME,
                "--payments.idempotency.lock-timeout=PT5S",
                "--payments.customer-action.expires-after=" + CUSTOMER_ACTION_EXPIRES_AFTER,
                "--payments.outbox.initial-backoff=PT0.5S",
                "--payments.outbox.max-backoff=PT3S",
                "--payments.outbox.delivery-timeout=PT8S",
                "--payments.outbox.lease=PT12S",
                "--payments.outbox.max-attempts=1000",
                "--payments.merchant-webhooks.initial-backoff=PT0.5S",
                "--payments.merchant-webhooks.max-backoff=PT3S",
                "--payments.merchant-webhooks.timeout=PT3S",
                "--payments.merchant-webhooks.lease=PT8S",
                "--payments.wake-ups.max-reconnect-wait=PT1S"));
        if (kafka != null) {
            args.add("--payments.events.kafka.bootstrap-servers=" + kafka.getBrokersAsString());
            args.add("--payments.events.kafka.topic=" + KAFKA_TOPIC);
            args.add("--payments.events.kafka.send-timeout=PT5S");
        }
        for (WorkloadTargets.Merchant merchant : MERCHANTS) {
            String prefix = "--payments.merchants." + merchant.id() + ".";
            args.add(prefix + "api-key=" + merchant.apiKey());
            args.add(prefix + "routing=" + merchant.routing());
            args.add(prefix + "webhook-url=" + receiver.urlFor(merchant.id()));
            args.add(prefix + "webhook-secret=" + merchantWebhookSecret);
            if (merchant.routing().contains("stripe")) {
                args.add(prefix + "connectors.stripe.secret-key=" + STRIPE_SECRET_KEY);
                args.add(prefix + "connectors.stripe.webhook-secret=" + STRIPE_WEBHOOK_SECRET);
            }
            if (merchant.routing().contains("adyen")) {
                args.add(prefix + "connectors.adyen.api-key=" + ADYEN_API_KEY);
                args.add(prefix + "connectors.adyen.merchant-account=" + ADYEN_MERCHANT_ACCOUNT);
                args.add(prefix + "connectors.adyen.hmac-key=" + ADYEN_HMAC_KEY);
            }
        }
        return args;
    }

    /**
     * One host: as before. Several: r2dbc-postgresql's multi-host form ({@code failover} protocol), which connects
     * to the host that answers {@code SHOW TRANSACTION_READ_ONLY} with off.
     */
    static String r2dbcUrl(List<LinkProxy> db) {
        if (db.size() == 1) {
            return "r2dbc:postgresql://localhost:" + db.get(0).port() + "/postgres";
        }
        return "r2dbc:postgresql:failover://" + hosts(db) + "/postgres?targetServerType=primary";
    }

    /** Flyway's URL: pgJDBC's multi-host form with several hosts. */
    static String jdbcUrl(List<LinkProxy> db) {
        if (db.size() == 1) {
            return "jdbc:postgresql://localhost:" + db.get(0).port() + "/postgres";
        }
        return "jdbc:postgresql://" + hosts(db) + "/postgres?targetServerType=primary";
    }

    private static String hosts(List<LinkProxy> db) {
        return String.join(",", db.stream().map(link -> "localhost:" + link.port()).toList());
    }

    // --- what the workload, the nemesis and the checker use ----------------------------------------------------------

    public WorkloadTargets targets() {
        return new WorkloadTargets(instanceBaseUrls(), MERCHANTS, sandboxWebhookSecret, stripe, STRIPE_WEBHOOK_SECRET,
                adyen, ADYEN_MERCHANT_ACCOUNT, ADYEN_HMAC_KEY, pspFaults);
    }

    public List<String> instanceBaseUrls() {
        return instances.stream().map(ServiceProcess::baseUrl).toList();
    }

    public List<ServiceProcess> instances() {
        return List.copyOf(instances);
    }

    public ServiceProcess instance(String name) {
        return instances.stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow();
    }

    /** Every link by name ({@code i1.db}, {@code i1.stripe}, …). */
    public Map<String, LinkProxy> links() {
        return Map.copyOf(links);
    }

    /**
     * The links a fault on {@code target} breaks: the link of that name, or, for {@code iN.db} with a primary and a
     * standby, the instance's links to both servers.
     */
    public List<LinkProxy> linkGroup(String target) {
        if (links.containsKey(target)) {
            return List.of(links.get(target));
        }
        List<LinkProxy> group = links.entrySet().stream().filter(link -> link.getKey().startsWith(target + "."))
                .map(Map.Entry::getValue).toList();
        if (group.isEmpty()) {
            throw new IllegalArgumentException("no link " + target);
        }
        return group;
    }

    public LinkProxy link(String name) {
        LinkProxy proxy = links.get(name);
        if (proxy == null) {
            throw new IllegalArgumentException("no link " + name);
        }
        return proxy;
    }

    public DatabaseServer postgres() {
        return postgres;
    }

    /** The primary and its standby, when the world runs them (empty: one PostgreSQL). */
    public java.util.Optional<PostgresPair> primaryAndStandby() {
        return java.util.Optional.ofNullable(pair);
    }

    public FakeStripe stripe() {
        return stripe;
    }

    public FakeAdyen adyen() {
        return adyen;
    }

    public PspFaults pspFaults() {
        return pspFaults;
    }

    /**
     * A charge made at a fake for an attempt, as the service's request would have made it had it reached the PSP
     * late: the attempt's key, its payment id and attempt as metadata, a card that succeeds. Directly, not through a
     * link. Answers the PaymentIntent id or pspReference.
     */
    private String chargeLate(String connector, String paymentId, int attempt, long amount, String currency) {
        String key = attempt == 1 ? paymentId : paymentId + "-attempt-" + attempt;
        java.net.http.HttpRequest.Builder request;
        if (connector.equals("stripe")) {
            String form = "amount=" + amount + "&currency=" + currency.toLowerCase(java.util.Locale.ROOT)
                    + "&payment_method=pm_card_visa&confirm=true&metadata[payment_id]=" + paymentId
                    + "&metadata[attempt]=" + attempt;
            request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(stripe.baseUrl()
                            + "/v1/payment_intents"))
                    .header("Authorization", "Bearer " + STRIPE_SECRET_KEY)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(form));
        } else if (connector.equals("adyen")) {
            String body = "{\"amount\": {\"currency\": \"" + currency + "\", \"value\": " + amount + "},"
                    + " \"reference\": \"" + paymentId + "\", \"merchantAccount\": \"" + ADYEN_MERCHANT_ACCOUNT
                    + "\", \"paymentMethod\": {\"type\": \"scheme\", \"storedPaymentMethodId\": \"pm_card_visa\"},"
                    + " \"metadata\": {\"payment_id\": \"" + paymentId + "\", \"attempt\": \"" + attempt + "\"}}";
            request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(adyen.checkoutUrl() + "/payments"))
                    .header("X-API-Key", ADYEN_API_KEY)
                    .header("Content-Type", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
        } else {
            throw new IllegalArgumentException("no late charges at " + connector);
        }
        try {
            java.net.http.HttpResponse<String> answer = java.net.http.HttpClient.newHttpClient().send(
                    request.header("Idempotency-Key", key).timeout(Duration.ofSeconds(10)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            var json = tools.jackson.databind.json.JsonMapper.builder().build().readTree(answer.body());
            String id = json.path(connector.equals("stripe") ? "id" : "pspReference").asString("");
            if (answer.statusCode() / 100 != 2 || id.isEmpty()) {
                throw new IllegalStateException(connector + " answered " + answer.statusCode() + " " + answer.body());
            }
            return id;
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public GreenMail mail() {
        return mail;
    }

    public MerchantReceiver receiver() {
        return receiver;
    }

    public @Nullable EmbeddedKafkaKraftBroker kafka() {
        return kafka;
    }

    public Path outDir() {
        return config.outDir();
    }

    /** The facts for the checker; {@code history} tells which Adyen payments the clients' notifications settled. */
    public WorldFacts facts(List<com.payorch.chaos.history.HistoryEntry> history) {
        return new WorldFacts(this, history);
    }

    /** Every link healed, the receiver up, PostgreSQL and every instance running (restarted where needed). */
    public void healAll() {
        links.values().forEach(LinkProxy::heal);
        for (String connector : List.of("stripe", "adyen")) {
            pspFaults.outage(connector, false);
            pspFaults.lateSuccesses(connector, false);
        }
        pspFaults.stripeKeys().forget(false);
        pspFaults.dropReversals();
        receiver.up();
        if (!postgres.isRunning()) {
            postgres.startServer();
        }
        List<ServiceProcess> restarted = new ArrayList<>();
        for (ServiceProcess instance : instances) {
            if (!instance.isAlive()) {
                instance.start();
                restarted.add(instance);
            }
        }
        writePids();
        restarted.forEach(instance -> instance.awaitReady(Duration.ofSeconds(180)));
    }

    /**
     * Work still owed, by kind, read directly from the database: payments PENDING or PROCESSING, refunds PENDING,
     * events not yet relayed (parked ones too: with payments.outbox.max-attempts 1000 none is parked), sandbox charges processing, merchant deliveries pending, e-mails not sent. All zero: the
     * world has settled. Empty when the database cannot be read.
     */
    public Map<String, Long> unsettled() {
        try {
            return Checker.outstandingWork(new CampaignFacts.Database(postgres.jdbcUrl(), "postgres", "", "public"));
        } catch (IllegalStateException databaseDown) {
            return Map.of();
        }
    }

    /** Process ids of PostgreSQL and the instances, for run.sh to clean up after a JVM that died hard. */
    private synchronized void writePids() {
        List<String> lines = new ArrayList<>();
        instances.stream().filter(ServiceProcess::isAlive).forEach(i -> lines.add(Long.toString(i.pid())));
        try {
            Files.write(config.outDir().resolve("instance.pids"), lines, StandardCharsets.UTF_8);
        } catch (IOException ignored) {
            // only a help for run.sh
        }
    }

    /** Writes the instances' pids again (after a restart). */
    public void pidsChanged() {
        writePids();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // the instances first, at once (they hold connections through the links), then the rest, PostgreSQL last
        instances.parallelStream().forEach(World::closeQuietly);
        List<AutoCloseable> rest = new ArrayList<>(closeables);
        rest.removeAll(instances);
        java.util.Collections.reverse(rest);
        rest.forEach(World::closeQuietly);
        try {
            Files.deleteIfExists(config.outDir().resolve("instance.pids"));
        } catch (IOException ignored) {
            // nothing to clean
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            System.err.println("[chaos] closing " + closeable + ": " + e);
        }
    }

    private static String whsec() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return "whsec_" + Base64.getEncoder().encodeToString(bytes);
    }

    private static int portOf(String url) {
        return java.net.URI.create(url).getPort();
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
