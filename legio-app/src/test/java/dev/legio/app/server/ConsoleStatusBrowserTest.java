package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.HandEdits;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;

/**
 * The console's view of the legion's state in a real headless Chromium against a real Legio server
 * on the offline model: damaged session rows named as {@code GET /api/v1/status} names them, the
 * costs read at most every few seconds however busy the log, and the loading notice gone once the
 * page has loaded.
 */
class ConsoleStatusBrowserTest {
  private static final String USAGE_BY_SESSION = "/api/v1/usage?since=3650d&by=session";

  @TempDir Path dir;
  ServerFixture server;
  Chromium browser;

  @BeforeEach
  void start() throws Exception {
    browser = Chromium.start();
    server = new ServerFixture(dir, Duration.ofSeconds(30), LegioServer.DEFAULT_EVENT_BUFFER);
  }

  @AfterEach
  void stop() {
    if (browser == null) {
      return; // no Chromium here: the test was skipped, and no server was started
    }
    try {
      browser.close();
    } finally {
      server.close();
    }
  }

  @Test
  void aDamagedSessionRowIsNamedWithWhatIsWrongAndWhatToDoAsText() throws Exception {
    HttpResponse<String> r =
        server.post("/api/v1/messages", server.operator, Map.of("text", "@vorenus hello"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    String hostile = "<img src=x onerror=alert(1)>";
    HandEdits.sqlite(
        server.root.resolve("castra/praetorium.db"),
        "UPDATE sessions SET state = '" + hostile + "' WHERE owner = 'vorenus'");

    signIn();

    WebElement row =
        browser.await(
            d ->
                d.findElement(
                    By.cssSelector(
                        ".agents [aria-label='Damaged session records']"
                            + " [data-damaged-owner=vorenus]")));
    assertThat(row.getText())
        .startsWith("The session record of vorenus (session ")
        .contains("is damaged: state '" + hostile + "' is neither 'active' nor 'closed'")
        .contains("`legio reset vorenus` clears the row now");
    assertThat(browser.driver.findElements(By.cssSelector(".agents img"))).isEmpty();
    assertNoAlert();
    browser.screenshot("damaged-session");
  }

  @Test
  void aBurstOfEventsReadsTheCostsAtMostEveryFewSeconds() throws Exception {
    signIn();
    browser.await(d -> connection().equals("Live"));
    int before = usageReads();

    long started = System.nanoTime();
    int messages = 10;
    for (int i = 0; i < messages; i++) {
      server.post("/api/v1/messages", server.operator, Map.of("text", "@vorenus ping " + i));
      Thread.sleep(300); // apart, as a busy castra's turns are: no debounce merges them
    }
    browser.await(
        d ->
            d.findElements(By.cssSelector("[role=log] article[data-sender=vorenus]")).size()
                == messages);
    long burstMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();
    // The read the last events asked for comes at the end of its interval.
    Thread.sleep(6_000);
    int during = usageReads() - before;

    // One read at once, then at most one per 5 s interval of the burst, and the last one after it.
    assertThat(during)
        .as("usage reads for %d messages in %d ms", messages, burstMillis)
        .isBetween(1, 2 + (int) (burstMillis / 5_000) + 1);
  }

  @Test
  void theLoadingNoticeGoesOnceThePageHasLoaded() {
    browser.open(server.uri("/"));
    browser.await(d -> d.findElement(By.id("token")));
    assertThat(body()).doesNotContain("Loading the Legio console");

    signIn();
    assertThat(body()).doesNotContain("Loading the Legio console");
  }

  @Test
  void aStoredTokenRefusedOnLoadSaysSoInsteadOfLoading() {
    browser.open(server.uri("/"));
    browser.await(d -> d.findElement(By.id("token")));
    browser.driver.executeScript("sessionStorage.setItem('legio.token', 'not-a-token')");
    browser.driver.navigate().refresh();

    WebElement alert = browser.await(d -> d.findElement(By.cssSelector(".sign-in [role=alert]")));
    assertThat(alert.getText())
        .startsWith("The access token this tab kept was refused; sign in again.")
        .contains("Wrong access token");
    assertThat(body()).doesNotContain("Loading the Legio console");
  }

  @Test
  void aScriptThatCannotLoadReplacesTheLoadingNoticeWithWhatToDo() {
    browser.driver.executeCdpCommand("Network.enable", Map.of());
    browser.driver.executeCdpCommand(
        "Network.setBlockedURLs", Map.of("urls", List.of("*/console/legion.js")));

    browser.open(server.uri("/"));

    WebElement alert = browser.await(d -> d.findElement(By.cssSelector("#app [role=alert]")));
    assertThat(alert.getText())
        .startsWith("The page could not be loaded: one of its scripts could not be fetched")
        .contains("Reload it");
    assertThat(body()).doesNotContain("Loading the Legio console");
  }

  // ---- helpers ----

  private int usageReads() throws Exception {
    List<String> urls = browser.requestedUrls();
    return (int) urls.stream().filter(u -> u.endsWith(USAGE_BY_SESSION)).count();
  }

  private void signIn() {
    browser.open(server.uri("/"));
    browser.await(d -> d.findElement(By.id("token"))).sendKeys(server.operator, Keys.ENTER);
    browser.await(d -> d.findElement(By.id("message")));
    browser.await(d -> !d.findElements(By.cssSelector(".agents [data-owner=vorenus]")).isEmpty());
  }

  private String body() {
    return browser.driver.findElement(By.tagName("body")).getText();
  }

  private String connection() {
    return browser.driver.findElement(By.cssSelector(".connection")).getText().strip();
  }

  private void assertNoAlert() {
    try {
      browser.driver.switchTo().alert();
      throw new AssertionError("a hostile text opened an alert: it ran as script");
    } catch (NoAlertPresentException expected) {
      // nothing ran
    }
  }
}
