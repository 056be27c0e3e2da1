package com.payorch.customeraction.browser;

import com.payorch.console.ChromiumAvailable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The customer's browser: Debian's headless chromium through chromedriver, started as the console's browser tests
 * start it, with Chrome's network log on so a test can read the HTTP status of the pages it landed on (a 409 page
 * looks like any page to Selenium). Screenshots go to {@code target/customer-action-screenshots/}.
 */
final class CustomerBrowser implements AutoCloseable {

    static final Path SCREENSHOTS = Path.of("target", "customer-action-screenshots");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ChromeDriver driver;
    private final Path profile;
    private final List<Document> documents = new ArrayList<>();
    private final List<String> posts = new ArrayList<>();

    private CustomerBrowser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    static CustomerBrowser start() throws IOException {
        Path profile = Files.createTempDirectory("customer-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(ChromiumAvailable.CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,1000", "--user-data-dir=" + profile);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.PERFORMANCE, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(ChromiumAvailable.CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        Files.createDirectories(SCREENSHOTS);
        return new CustomerBrowser(driver, profile);
    }

    ChromeDriver driver() {
        return driver;
    }

    void open(String url) {
        driver.get(url);
    }

    String currentUrl() {
        return driver.getCurrentUrl();
    }

    String text(String selector) {
        Object text = script("var e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;",
                selector);
        return text == null ? "" : (String) text;
    }

    boolean has(String selector) {
        return !driver.findElements(By.cssSelector(selector)).isEmpty();
    }

    WebElement find(String selector) {
        return driver.findElement(By.cssSelector(selector));
    }

    Object script(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    Object asyncScript(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeAsyncScript(script, args);
    }

    WebDriverWait waitFor() {
        return new WebDriverWait(driver, Duration.ofSeconds(20));
    }

    /** A page (document) the browser received, with its HTTP status, oldest first since the browser started. */
    record Document(String url, long status) {
    }

    /** Every document received so far (redirects show as the document they led to, a 303 is not one). */
    List<Document> documents() {
        readNetworkLog();
        return List.copyOf(documents);
    }

    /** How many POST requests the browser sent to an address starting with {@code prefix}. */
    long postsTo(String prefix) {
        readNetworkLog();
        return posts.stream().filter(url -> url.startsWith(prefix)).count();
    }

    private void readNetworkLog() {
        for (LogEntry entry : driver.manage().logs().get(LogType.PERFORMANCE)) {
            JsonNode message = JSON.readTree(entry.getMessage()).path("message");
            JsonNode params = message.path("params");
            if ("Network.requestWillBeSent".equals(message.path("method").asText())
                    && "POST".equals(params.path("request").path("method").asText())) {
                posts.add(params.path("request").path("url").asText());
            }
            if ("Network.responseReceived".equals(message.path("method").asText())
                    && "Document".equals(params.path("type").asText())) {
                documents.add(new Document(params.path("response").path("url").asText(),
                        params.path("response").path("status").asLong()));
            }
        }
    }

    /** The status of the last document received from an address starting with {@code prefix}. */
    long lastStatusOf(String prefix) {
        List<Document> all = documents();
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).url().startsWith(prefix)) {
                return all.get(i).status();
            }
        }
        throw new AssertionError("no document from " + prefix + " in " + all);
    }

    void screenshot(String name) {
        try {
            Path png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath();
            Files.copy(png, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new IllegalStateException("screenshot " + name, e);
        }
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
