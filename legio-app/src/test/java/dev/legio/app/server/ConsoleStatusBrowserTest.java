package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.HandEdits;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
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
 * on the offline model: damaged session rows named as {@code GET /api/v1/status} names them.
 */
class ConsoleStatusBrowserTest {
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

  // ---- helpers ----

  private void signIn() {
    browser.open(server.uri("/"));
    browser.await(d -> d.findElement(By.id("token"))).sendKeys(server.operator, Keys.ENTER);
    browser.await(d -> d.findElement(By.id("message")));
    browser.await(d -> !d.findElements(By.cssSelector(".agents [data-owner=vorenus]")).isEmpty());
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
