package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The web console in a real headless Chromium against a real Legio server on the offline model:
 * sign-in, the conversation with its attribution, hostile text, the agents panel following a turn,
 * recovery after a restart, every page, and no request leaving 127.0.0.1.
 */
class ConsoleBrowserTest {
  @TempDir Path dir;
  ServerFixture server;
  Chromium browser;

  @BeforeEach
  void start() throws Exception {
    browser = Chromium.start();
    server = new ServerFixture(dir, Duration.ofSeconds(30), LegioServer.DEFAULT_EVENT_BUFFER);
  }

  @AfterEach
  void stop() throws Exception {
    if (browser == null) {
      return; // no Chromium here: the test was skipped, and no server was started
    }
    try {
      assertOnlyLoopbackRequests();
    } finally {
      browser.close();
      server.close();
    }
  }

  @Test
  void wrongTokenIsRefusedThenBothRepliesShowUnderTheirAgents() throws Exception {
    browser.open(server.uri("/"));
    WebElement token = browser.await(d -> d.findElement(By.id("token")));
    assertThat(token.getAccessibleName()).isEqualTo("Access token");
    browser.screenshot("sign-in");
    token.sendKeys("not-a-token", Keys.ENTER);
    WebElement error = browser.await(d -> d.findElement(By.cssSelector(".sign-in [role=alert]")));
    assertThat(error.getText()).startsWith("Wrong access token");

    signIn();
    WebElement box = browser.driver.findElement(By.id("message"));
    assertThat(box.getAccessibleName()).isEqualTo("Message");
    assertThat(button("Send").getAccessibleName()).isEqualTo("Send");
    WebElement log = browser.driver.findElement(By.cssSelector("[role=log]"));
    assertThat(log.getAccessibleName()).isEqualTo("Conversation");
    // Keyboard only: "@vor" + Tab completes the name, Enter sends. The next name is typed at once
    // after the Tab, as a fast typist does: the caret must stay where the typing left it.
    box.sendKeys("@vor");
    browser.await(d -> d.findElement(By.id("mention-vorenus")).isDisplayed());
    box.sendKeys(Keys.TAB, "@pul");
    browser.await(d -> d.findElement(By.id("mention-pullo")).isDisplayed());
    box.sendKeys(Keys.TAB);
    assertThat(box.getAttribute("value")).isEqualTo("@vorenus @pullo ");
    box.sendKeys("hello", Keys.ENTER);

    Map<String, String> descriptions = descriptions();
    for (String agent : List.of("vorenus", "pullo")) {
      WebElement reply = reply(agent);
      assertThat(reply.findElement(By.cssSelector(".sender")).getText()).contains(agent);
      assertThat(reply.findElement(By.cssSelector(".description")).getText())
          .isEqualTo(descriptions.get(agent));
      assertThat(reply.getText()).contains(agent + " received: \"@vorenus @pullo hello\"");
    }
    WebElement mine = message("caesar");
    assertThat(mine.getText()).contains("@vorenus @pullo hello");
    assertThat(box.getAttribute("value")).isEmpty();
    browser.screenshot("conversation");
  }

  @Test
  void hostileReplyIsShownAsTextAndRunsNothing() throws Exception {
    signIn();
    String hostile =
        "<img src=x onerror=alert(1)> <script>alert(2)</script> [x](javascript:alert(3))";
    typeAndSend("@vorenus " + hostile);
    WebElement reply = reply("vorenus");
    assertThat(reply.getText()).contains(hostile);
    assertThat(browser.driver.findElements(By.cssSelector("[role=log] img, [role=log] script")))
        .isEmpty();
    assertThat(browser.driver.findElements(By.cssSelector("[role=log] a"))).isEmpty();
    assertNoAlert();

    typeAndSend(
        "@pullo see https://example.org/a?b=1 and ```\n<b>bold</b>\n``` javascript:alert(4)");
    WebElement second = reply("pullo");
    List<WebElement> links = browser.driver.findElements(By.cssSelector("[role=log] a"));
    assertThat(links).isNotEmpty();
    for (WebElement link : links) {
      assertThat(link.getAttribute("href")).startsWith("https://example.org/");
      assertThat(link.getAttribute("rel")).contains("noopener");
    }
    assertThat(second.getText()).contains("javascript:alert(4)");
    assertThat(browser.driver.findElements(By.cssSelector("[role=log] b"))).isEmpty();
    assertThat(browser.driver.findElements(By.cssSelector("[role=log] pre code"))).isNotEmpty();
    assertNoAlert();
  }

  @Test
  void agentsPanelFollowsATurnFromStartToEnd() throws Exception {
    signIn();
    WebElement pullo =
        browser.await(d -> d.findElement(By.cssSelector(".agents [data-owner=pullo]")));
    assertThat(pullo.findElement(By.cssSelector("[data-activity]")).getText()).isEqualTo("idle");
    typeAndSend("@pullo #hold dig in");
    assertThat(server.held.await(30, TimeUnit.SECONDS)).isTrue();
    browser.await(
        d ->
            d.findElement(By.cssSelector(".agents [data-owner=pullo] [data-activity]"))
                .getText()
                .equals("working"));
    browser.await(
        d ->
            d.findElement(By.cssSelector(".agents [data-owner=pullo] .live-status"))
                .getText()
                .contains("⏳ Holding..."));
    assertThat(browser.driver.findElement(By.cssSelector(".working [data-agent=pullo]")).getText())
        .contains("Holding");
    browser.screenshot("agent-working");
    server.release();
    reply("pullo");
    browser.await(
        d ->
            d.findElement(By.cssSelector(".agents [data-owner=pullo] [data-activity]"))
                .getText()
                .equals("idle"));
    WebElement after =
        browser.await(d -> d.findElement(By.cssSelector(".agents [data-owner=pullo]:has(meter)")));
    assertThat(after.getText()).contains("active").containsPattern("\\d+% of \\d+");
    assertThat(browser.driver.findElements(By.cssSelector(".working [data-agent]"))).isEmpty();

    button("Reset pullo's session").click();
    browser.await(
        d -> d.findElement(By.cssSelector(".agents .notice")).getText().contains("was reset"));
    browser.await(
        d ->
            d.findElement(By.cssSelector(".agents [data-owner=pullo]"))
                .getText()
                .contains("closed"));
  }

  @Test
  void theAgentsPanelListsTheOpenChannelsAndCountsTheOthers() throws Exception {
    for (int i = 0; i < 40; i++) {
      server.channelUsed("telegram:" + (1000 + i), Duration.ofHours(2).plusMinutes(i), i % 2 == 0);
    }
    HttpResponse<String> r =
        server.post(
            "/api/v1/channels/telegram:7/messages", server.gateway, Map.of("text", "still here"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

    signIn();
    WebElement channels =
        browser.await(d -> d.findElement(By.cssSelector(".agents [aria-label=Channels]")));
    assertThat(channels.findElements(By.cssSelector("[data-owner]")))
        .extracting(e -> e.getAttribute("data-owner"))
        .containsExactly("telegram:7");
    assertThat(browser.driver.findElement(By.cssSelector(".agents h3")).getText())
        .isEqualTo("Channels (1 open)");
    assertThat(
            browser
                .driver
                .findElement(By.cssSelector(".agents [aria-label='Channels not listed']"))
                .getText())
        .isEqualTo("40 idle or closed channels not listed.");
    ((org.openqa.selenium.JavascriptExecutor) browser.driver)
        .executeScript("arguments[0].scrollIntoView()", channels);
    browser.screenshot("channels");
  }

  @Test
  void pageRecoversAfterTheServerRestarts() throws Exception {
    signIn();
    typeAndSend("@vorenus before");
    reply("vorenus");
    browser.await(d -> connection().equals("Live"));
    server.restart();
    // A message logged by someone else after the restart reaches the page through the new stream.
    JsonNode answer =
        ServerFixture.json(
            server.post("/api/v1/messages", server.operator, Map.of("text", "@pullo after")));
    assertThat(answer.path("replies")).hasSize(1);
    browser.await(d -> connection().equals("Live"));
    browser.await(
        d -> d.findElements(By.cssSelector("[role=log] article[data-sender=pullo]")).size() == 1);
    typeAndSend("@vorenus again");
    browser.await(
        d -> d.findElements(By.cssSelector("[role=log] article[data-sender=vorenus]")).size() == 2);
    List<Long> sequences =
        browser.driver.findElements(By.cssSelector("[role=log] article")).stream()
            .map(e -> Long.parseLong(e.getAttribute("data-sequence")))
            .toList();
    assertThat(sequences).isSorted().doesNotHaveDuplicates().hasSize(6);
  }

  @Test
  void aMessageRefusedAsBusyIsSentAgainAsOneRequest() throws Exception {
    server.close();
    server =
        new ServerFixture(
            dir.resolve("busy"), Duration.ofSeconds(1), LegioServer.DEFAULT_EVENT_BUFFER);
    signIn();
    CompletableFuture<HttpResponse<String>> holding = server.postHeld("@vorenus #hold first");
    String text = "@vorenus send me once";
    typeAndSend(text);
    // Busy past the 1 s wait: 409, the message logged, and the text back in the box.
    WebElement box = browser.driver.findElement(By.id("message"));
    browser.await(d -> text.equals(box.getAttribute("value")));
    assertThat(browser.await(d -> d.findElement(By.cssSelector("p.error[role=alert]"))).getText())
        .contains("busy");
    server.release();
    assertThat(holding.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);

    button("Send").click();
    browser.await(
        d -> d.findElements(By.cssSelector("[role=log] article[data-sender=vorenus]")).size() == 2);

    assertThat(requests())
        .as("sent again under its first key: one request")
        .containsExactly("@vorenus #hold first", text);
  }

  @Test
  void theSameTextSentAgainWhileTheFirstWaitsIsAMessageOfItsOwn() throws Exception {
    signIn();
    CompletableFuture<HttpResponse<String>> holding = server.postHeld("@vorenus #hold first");
    String text = "@vorenus yes";
    typeAndSend(text);
    // The first "yes" is logged and waits for vorenus, who is busy; the second is typed meanwhile.
    browser.await(
        d -> d.findElements(By.cssSelector("[role=log] article[data-sender=caesar]")).size() == 2);
    typeAndSend(text);
    browser.await(
        d -> d.findElements(By.cssSelector("[role=log] article[data-sender=caesar]")).size() == 3);
    server.release();
    assertThat(holding.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    browser.await(
        d -> d.findElements(By.cssSelector("[role=log] article[data-sender=vorenus]")).size() == 3);

    assertThat(requests()).containsExactly("@vorenus #hold first", text, text);
  }

  /** The texts caesar sent, as the log keeps them. */
  private List<String> requests() throws Exception {
    List<String> requests = new ArrayList<>();
    JsonNode history = ServerFixture.json(server.get("/api/v1/history", server.operator));
    for (JsonNode m : history.path("messages")) {
      if (m.path("sender").asText().equals("caesar")) {
        requests.add(m.path("text").asText());
      }
    }
    return requests;
  }

  @Test
  void aPageOpenWhileTheLogIsRestoredFromAnOlderCopyShowsItAndWhatComesAfter() throws Exception {
    signIn();
    typeAndSend("@vorenus kept");
    browser.await(
        d -> d.findElements(By.cssSelector("[role=log] article[data-sender=vorenus]")).size() == 1);
    typeAndSend("@vorenus lost in the restore");
    browser.await(
        d -> d.findElements(By.cssSelector("[role=log] article[data-sender=vorenus]")).size() == 2);

    // The log restored from a copy taken after the first exchange (sequences 1 and 2), as an
    // operator does with a backup, and the server started again over it.
    try (java.sql.Connection db =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + server.root.resolve("castra/praetorium.db"));
        java.sql.Statement s = db.createStatement()) {
      s.executeUpdate("DELETE FROM nuntii WHERE seq > 2");
      s.executeUpdate("UPDATE sqlite_sequence SET seq = 2 WHERE name = 'nuntii'");
    }
    server.restart();
    browser.await(d -> connection().equals("Live"));
    browser.await(d -> d.findElements(By.cssSelector("[role=log] article")).size() == 2);

    // What is logged after the restore has sequences the page saw before: it shows all the same.
    server.post("/api/v1/messages", server.operator, Map.of("text", "@pullo after the restore"));
    browser.await(
        d ->
            d.findElements(By.cssSelector("[role=log] article[data-sequence='3']")).stream()
                .anyMatch(a -> a.getText().contains("after the restore")));
    assertThat(
            browser.driver.findElements(By.cssSelector("[role=log] article")).stream()
                .map(e -> Long.parseLong(e.getAttribute("data-sequence")))
                .toList())
        .startsWith(1L, 2L, 3L)
        .isSorted()
        .doesNotHaveDuplicates();
  }

  @Test
  void everyPageLoadsFromThisServerAndWorks() throws Exception {
    server
        .app
        .memoria()
        .forLegatus("legatus")
        .writeCommentarium("vorenus", "ford", "The ford is shallow at dawn.");
    Path memory = server.app.config().memory().dir().resolve("vorenus");
    Files.createDirectories(memory);
    Files.writeString(memory.resolve("MEMORY.md"), "# Memory\n- The north road floods.\n");
    signIn();
    typeAndSend("@vorenus @pullo report");
    reply("pullo");

    button("Sessions").click();
    WebElement open =
        browser.await(d -> d.findElement(By.cssSelector(".sessions button[aria-label^='Open']")));
    open.click();
    browser.await(d -> !d.findElements(By.cssSelector(".entries li")).isEmpty());
    browser.screenshot("sessions");

    button("Memoria").click();
    browser.await(d -> d.findElement(By.id("publish-name"))).sendKeys("north-road");
    browser.driver.findElement(By.id("publish-text")).sendKeys("Hold the <b>north</b> road.");
    button("Publish").click();
    browser
        .await(d -> d.findElement(By.cssSelector("button[aria-label='Read edicta north-road']")))
        .click();
    WebElement entry = browser.await(d -> d.findElement(By.cssSelector(".memoria-entry")));
    assertThat(entry.getText()).contains("Hold the <b>north</b> road.");
    browser.driver.findElement(By.id("revoke-reason")).sendKeys("relieved");
    button("Revoke edictum north-road").click();
    browser.await(
        d ->
            d.findElement(By.cssSelector(".memoria-entry"))
                .getText()
                .contains("Revoked by legatus: relieved"));
    browser.driver.findElement(By.id("memoria-search")).sendKeys("shallow", Keys.ENTER);
    browser.await(
        d ->
            d.findElement(By.cssSelector("[aria-label='Search results']"))
                .getText()
                .contains("commentarii of vorenus: ford"));
    new Select(browser.driver.findElement(By.id("memoria-agent"))).selectByValue("vorenus");
    browser.await(
        d ->
            d.findElement(By.cssSelector("button[aria-label='Read commentarii of vorenus ford']")));
    WebElement files =
        browser.await(
            d -> d.findElement(By.cssSelector("[aria-label=\"vorenus's memory files\"]")));
    browser.await(d -> files.getText().contains("The north road floods."));
    browser.screenshot("memoria");

    button("Usage").click();
    browser.await(d -> d.findElement(By.cssSelector("svg[aria-label='Tokens per agent'] rect")));
    assertThat(
            browser
                .driver
                .findElement(By.cssSelector("table[aria-label='Usage per agent']"))
                .getText())
        .contains("vorenus")
        .contains("pullo");
    browser.screenshot("usage");

    // Made as `legio token create` would, while the server runs.
    String viewerToken =
        new ApiTokens(server.app.workspace().castra())
            .create("viewer-page", Role.GATEWAY, List.of("viewer"))
            .secret();
    URI viewer = server.uri("/viewer/main");
    browser.open(viewer);
    browser.await(d -> d.findElement(By.id("token"))).sendKeys(viewerToken, Keys.ENTER);
    WebElement box = browser.await(d -> d.findElement(By.id("message")));
    assertThat(box.getAccessibleName()).isEqualTo("Message");
    browser.driver.findElement(By.id("viewer-name")).sendKeys("Ada");
    box.sendKeys("hello from the viewer", Keys.ENTER);
    WebElement answer =
        browser.await(d -> d.findElement(By.cssSelector("[role=log] article.from-agent")));
    assertThat(answer.getText()).contains("hello from the viewer").contains("role operator");
    browser.screenshot("viewer");
  }

  // ---- helpers ----

  private void signIn() {
    browser.open(server.uri("/"));
    browser.await(d -> d.findElement(By.id("token"))).sendKeys(server.operator, Keys.ENTER);
    browser.await(d -> d.findElement(By.id("message")));
    browser.await(d -> !d.findElements(By.cssSelector(".agents [data-owner=vorenus]")).isEmpty());
  }

  private void typeAndSend(String text) {
    WebElement box = browser.driver.findElement(By.id("message"));
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      // Shift+Enter is a new line in the message box; Enter alone would send.
      box.sendKeys(i == 0 ? lines[i] : Keys.chord(Keys.SHIFT, Keys.ENTER) + lines[i]);
    }
    browser.await(d -> text.equals(box.getAttribute("value")));
    button("Send").click();
  }

  private WebElement button(String name) {
    return browser.await(
        d ->
            d.findElements(By.tagName("button")).stream()
                .filter(b -> name.equals(b.getAccessibleName()))
                .findFirst()
                .orElse(null));
  }

  private WebElement message(String sender) {
    return browser.await(
        d -> d.findElement(By.cssSelector("[role=log] article[data-sender=" + sender + "]")));
  }

  private WebElement reply(String agent) {
    return message(agent);
  }

  private String connection() {
    return browser.driver.findElement(By.cssSelector(".connection")).getText().strip();
  }

  private Map<String, String> descriptions() throws Exception {
    JsonNode status = ServerFixture.json(server.get("/api/v1/status", server.operator));
    Map<String, String> out = new java.util.HashMap<>();
    for (JsonNode a : status.path("agents")) {
      out.put(a.path("owner").asText(), a.path("description").asText());
    }
    return out;
  }

  private void assertNoAlert() {
    try {
      browser.driver.switchTo().alert();
      throw new AssertionError("a hostile text opened an alert: it ran as script");
    } catch (NoAlertPresentException expected) {
      // nothing ran
    }
  }

  private void assertOnlyLoopbackRequests() throws Exception {
    List<String> urls = browser.requestedUrls();
    assertThat(urls).isNotEmpty();
    for (String url : urls) {
      if (url.startsWith("data:")) {
        continue;
      }
      assertThat(URI.create(url).getHost()).as(url).isEqualTo("127.0.0.1");
    }
    assertThat(Files.exists(Chromium.SCREENSHOTS) || true).isTrue();
  }
}
