package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * The console's sessions table in a real headless Chromium against a real Legio server: the first
 * page of {@code GET /api/v1/sessions}, then the next ones on "More sessions", each session once.
 */
class ConsoleSessionsBrowserTest {
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
  void moreSessionsReadsTheNextPageAfterTheLastShown() throws Exception {
    Set<String> all = new HashSet<>();
    for (int i = 0; i < 62; i++) {
      all.add(
          SessionsPagingApiTest.transcript(
              server, "vorenus", Instant.parse("2025-03-01T08:00:00Z").minusSeconds(60L * i)));
    }
    browser.open(server.uri("/"));
    browser.await(d -> d.findElement(By.id("token"))).sendKeys(server.operator, Keys.ENTER);
    browser.await(d -> d.findElement(By.id("message")));

    button("Sessions").click();
    browser.await(d -> rows().size() == 50);
    assertThat(rows()).doesNotHaveDuplicates();
    button("More sessions").click();
    browser.await(d -> rows().size() == 62);

    assertThat(rows()).doesNotHaveDuplicates().hasSameElementsAs(all);
    assertThat(browser.driver.findElements(By.xpath("//button[normalize-space()='More sessions']")))
        .as("the last page has no next")
        .isEmpty();
    assertThat(browser.requestedUrls())
        .filteredOn(u -> u.contains("/api/v1/sessions?"))
        .hasSize(2)
        .last()
        .asString()
        .contains("cursor=");
    browser.screenshot("sessions-pages");
  }

  /** The session ids the table shows, from each row's open button. */
  private List<String> rows() {
    return browser
        .driver
        .findElements(By.cssSelector(".sessions tbody button[aria-label^='Open']"))
        .stream()
        .map(b -> b.getAttribute("aria-label").split(" ")[2])
        .toList();
  }

  private WebElement button(String name) {
    return browser.await(
        d ->
            d.findElements(By.tagName("button")).stream()
                .filter(b -> name.equals(b.getAccessibleName()))
                .findFirst()
                .orElse(null));
  }
}
