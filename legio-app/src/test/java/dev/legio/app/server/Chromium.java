package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium (Debian's {@code chromium} and {@code chromium-driver} packages) driven
 * through its chromedriver, both named by path so that nothing is ever downloaded. Without them a
 * test is skipped with the command that installs them; under CI ({@code CI=true}) it fails instead.
 * Every URL the pages request is read from the browser's performance log ({@link #requestedUrls}).
 */
final class Chromium implements AutoCloseable {
  static final Path BROWSER = Path.of("/usr/bin/chromium");
  static final Path DRIVER = Path.of("/usr/bin/chromedriver");
  static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

  private static final ObjectMapper JSON = new ObjectMapper();

  final ChromeDriver driver;
  private final List<String> urls = new ArrayList<>();

  private Chromium(ChromeDriver driver) {
    this.driver = driver;
  }

  static Chromium start() {
    if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
      String message =
          "the console's browser tests need "
              + BROWSER
              + " and "
              + DRIVER
              + ": apt-get install -y chromium chromium-driver.";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        Assertions.fail(message + " Under CI these tests must run.");
      }
      Assumptions.abort(message);
    }
    System.setProperty("webdriver.chrome.driver", DRIVER.toString());
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(DRIVER.toFile())
            .usingAnyFreePort()
            .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(BROWSER.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1400,900",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--lang=en-GB");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.PERFORMANCE, Level.ALL);
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    return new Chromium(new ChromeDriver(service, options));
  }

  /** Opens {@code url} in the browser. */
  void open(URI url) {
    driver.get(url.toString());
  }

  /** Waits (up to 30 s) until {@code condition} is neither null nor false; returns it. */
  <T> T await(Function<WebDriver, T> condition) {
    try {
      return new WebDriverWait(driver, Duration.ofSeconds(30), Duration.ofMillis(50))
          .until(condition);
    } catch (org.openqa.selenium.TimeoutException e) {
      try {
        e.addSuppressed(
            new AssertionError(
                "the page at the timeout: "
                    + screenshot("timed-out")
                    + "\n"
                    + driver.findElement(org.openqa.selenium.By.tagName("body")).getText()
                    + "\nconsole: "
                    + consoleMessages()));
      } catch (IOException | RuntimeException ignored) {
        // the timeout is what matters
      }
      throw e;
    }
  }

  /** Saves a screenshot of the page as {@code target/console-screenshots/NAME.png}. */
  Path screenshot(String name) throws IOException {
    Files.createDirectories(SCREENSHOTS);
    Path file = SCREENSHOTS.resolve(name + ".png");
    Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
    return file;
  }

  /** Every URL the pages requested so far (from the performance log's network events). */
  List<String> requestedUrls() throws IOException {
    for (LogEntry entry : driver.manage().logs().get(LogType.PERFORMANCE)) {
      JsonNode message = JSON.readTree(entry.getMessage()).path("message");
      String method = message.path("method").asText();
      if (method.equals("Network.requestWillBeSent")
          || method.equals("Network.webSocketCreated")
          || method.equals("Network.requestWillBeSentExtraInfo")) {
        JsonNode params = message.path("params");
        String url = params.path("request").path("url").asText(params.path("url").asText(""));
        if (!url.isEmpty()) {
          urls.add(url);
        }
      }
    }
    return List.copyOf(urls);
  }

  /** The browser console's messages so far (errors such as a refused script show here). */
  List<String> consoleMessages() {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
        .map(LogEntry::getMessage)
        .toList();
  }

  @Override
  public void close() {
    driver.quit();
  }
}
