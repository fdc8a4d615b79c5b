package dev.legio.app.gateway.telegram;

import static dev.legio.app.gateway.telegram.TelegramFixture.OPERATOR;
import static dev.legio.app.gateway.telegram.TelegramFixture.TOKEN;
import static dev.legio.app.gateway.telegram.TelegramFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.cli.Main;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.gateway.GatewayHealthReports;
import dev.legio.app.gateway.Gateways;
import dev.legio.log.Message;
import dev.legio.log.Names;
import dev.legio.session.JobLeases;
import dev.legio.store.gateway.GatewayStateStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Telegram gateway across restarts, outages, refused credentials and several nodes, against a
 * loopback fake of the Bot API.
 */
class TelegramResilienceTest {
  @TempDir Path dir;

  private static List<String> fromCaesar(TelegramFixture f) {
    return f.app.messageLog().history(1000).stream()
        .filter(m -> m.sender().equals(Names.CAESAR))
        .map(Message::text)
        .toList();
  }

  @Test
  void aRestartAfterTheTurnIsLoggedButBeforeTheReplyIsSentNeitherRepeatsNorLosesIt()
      throws Exception {
    try (FakeTelegram telegram = new FakeTelegram(TOKEN)) {
      // Telegram takes no message while the first process runs: the reply stays owed
      telegram.failNext("sendMessage", 1000, 500, "Internal Server Error", null);
      Path root;
      long updateId;
      try (TelegramFixture first = new TelegramFixture(dir, telegram.url(), "")) {
        root = first.root;
        TelegramGateway gateway = first.gateway();
        gateway.start();
        updateId =
            telegram.userWrites(
                OPERATOR, "private", OPERATOR, "Caesar", "@vorenus hold the bridge");
        await(
            "the turn logged and its reply owed",
            () -> !first.app.store().gatewayState().pending(TelegramGateway.NAME).isEmpty());
        assertThat(fromCaesar(first)).containsExactly("@vorenus hold the bridge");
        assertThat(first.app.store().gatewayState().nextOffset(TelegramGateway.NAME))
            .isEqualTo(updateId + 1);
      } // the process stops here, the reply unsent
      assertThat(telegram.sent).isEmpty();

      telegram.clearFailures();
      try (TelegramFixture second = new TelegramFixture(dir, telegram.url(), "", TOKEN, root)) {
        TelegramGateway gateway = second.gateway();
        int offsetsBefore = telegram.offsets.size();
        gateway.start();
        await("the owed reply sent", () -> telegram.sentTo("1001").size() == 1);
        await("polling again", () -> telegram.offsets.size() > offsetsBefore);
        assertThat(telegram.sentTo("1001").get(0).text()).startsWith("⚔️ vorenus");
        // not asked again for the update it answered, and the turn was not run again
        assertThat(telegram.offsets.subList(offsetsBefore, telegram.offsets.size()))
            .allMatch(offset -> offset == updateId + 1);
        assertThat(fromCaesar(second)).containsExactly("@vorenus hold the bridge");
        await(
            "forgotten once sent",
            () -> second.app.store().gatewayState().pending(TelegramGateway.NAME).isEmpty());

        // and the next message goes through once
        telegram.userWrites(OPERATOR, "private", OPERATOR, "Caesar", "@vorenus and now?");
        await("second reply", () -> telegram.sentTo("1001").size() == 2);
        assertThat(fromCaesar(second))
            .containsExactly("@vorenus hold the bridge", "@vorenus and now?");
      }
    }
  }

  @Test
  void anUpdateTakenAgainAfterACrashDuringItsTurnIsLoggedOnceAndAnsweredOnce() throws Exception {
    try (FakeTelegram telegram = new FakeTelegram(TOKEN)) {
      Path root;
      long updateId;
      com.fasterxml.jackson.databind.node.ObjectNode update;
      try (TelegramFixture first = new TelegramFixture(dir, telegram.url(), "")) {
        root = first.root;
        first.gateway().start();
        updateId = telegram.userWrites(42, "private", 42, "Ada", "hello legio");
        update = telegram.update(updateId);
        await("answered", () -> telegram.sentTo("42").size() == 1);
      }
      // What a process killed after the answer was logged, before the offset was stored, leaves:
      // the request and its answer in the log, the update not confirmed.
      try (java.sql.Connection db =
              java.sql.DriverManager.getConnection(
                  "jdbc:sqlite:" + root.resolve("castra/praetorium.db"));
          java.sql.PreparedStatement back =
              db.prepareStatement("UPDATE gateway_state SET next_offset = ? WHERE gateway = ?")) {
        back.setLong(1, updateId);
        back.setString(2, TelegramGateway.NAME);
        assertThat(back.executeUpdate()).isOne();
      }
      telegram.deliverAgain(update);

      try (TelegramFixture second = new TelegramFixture(dir, telegram.url(), "", TOKEN, root)) {
        second.gateway().start();
        await("the update taken again and answered", () -> telegram.sentTo("42").size() == 2);
        await(
            "confirmed",
            () ->
                second.app.store().gatewayState().nextOffset(TelegramGateway.NAME) == updateId + 1);
        List<Message> log = second.app.messageLog().history(100);
        assertThat(log)
            .as("one request, one answer: the answer in the log is sent, no second turn runs")
            .extracting(Message::sender)
            .containsExactly("telegram:42", "legatus");
        assertThat(telegram.sentTo("42").get(1).text())
            .isEqualTo(telegram.sentTo("42").get(0).text());
      }
    }
  }

  @Test
  void whileAnotherNodeSendsTheOwedRepliesThisOneSendsNone() throws Exception {
    try (FakeTelegram telegram = new FakeTelegram(TOKEN);
        TelegramFixture node = new TelegramFixture(dir, telegram.url(), "")) {
      TelegramGateway gateway = node.gateway();
      GatewayStateStore state = node.app.store().gatewayState();
      JobLeases leases = node.app.store().jobLeases();
      state.commitTurn(
          TelegramGateway.NAME,
          5,
          List.of(new GatewayStateStore.Outbound(0, "1001", "owed")),
          Instant.now());
      assertThat(
              leases.tryTake(
                  TelegramGateway.SENDER_JOB, "other-node", Instant.now(), Duration.ofSeconds(30)))
          .isTrue();

      assertThat(gateway.sendPending()).isFalse();
      assertThat(telegram.sent).isEmpty();

      leases.release(TelegramGateway.SENDER_JOB, "other-node");
      assertThat(gateway.sendPending()).isTrue();
      assertThat(telegram.sentTo("1001")).hasSize(1);
      assertThat(state.pending(TelegramGateway.NAME)).isEmpty();
      assertThat(leases.holderOf(TelegramGateway.SENDER_JOB, Instant.now()))
          .as("given up after the round")
          .isEmpty();
    }
  }

  @Test
  void telegramDownAtStartLeavesTheGatewayWaitingWhileLegioServesThenItConnects() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (TelegramFixture f = new TelegramFixture(dir, "http://127.0.0.1:" + port, "")) {
      TelegramGateway gateway = f.gateway();
      gateway.start();
      await(
          "waiting with the reason",
          () -> gateway.health().detail().contains("not reachable at http://127.0.0.1:" + port));
      assertThat(gateway.health().state()).isEqualTo(GatewayHealth.State.WAITING);
      assertThat(gateway.health().detail()).endsWith("; retrying").doesNotContain(TOKEN);
      // the rest of Legio serves meanwhile
      assertThat(
              new dev.legio.app.conversation.Conversations(f.engine, f.app.config().sessions())
                  .fromCaesar("@vorenus are you there?", dev.legio.session.DispatchListener.NONE)
                  .ok())
          .isTrue();

      try (FakeTelegram telegram = new FakeTelegram(TOKEN, port)) {
        await("connected", () -> gateway.health().state() == GatewayHealth.State.CONNECTED);
        telegram.userWrites(OPERATOR, "private", OPERATOR, "Caesar", "@vorenus now?");
        await("reply", () -> telegram.sentTo("1001").size() == 1);
      }
    }
  }

  @Test
  void aRefusedTokenIsFailingWithWhatToDoAndTheTokenIsNeverShown() throws Exception {
    try (FakeTelegram telegram = new FakeTelegram("999:the-right-token-is-another");
        TelegramFixture f = new TelegramFixture(dir, telegram.url(), "")) {
      TelegramGateway gateway = f.gateway();
      Gateways gateways = new Gateways(List.of(gateway));
      gateways.start();
      await("failing", () -> gateway.health().state() == GatewayHealth.State.FAILING);
      String detail = gateway.health().detail();
      assertThat(detail)
          .contains("TELEGRAM_BOT_TOKEN", "BotFather", "401")
          .doesNotContain(TOKEN, TOKEN.substring(TOKEN.indexOf(':') + 1));

      // legio status, another process, reads what the serving process stored
      new GatewayHealthReports(gateways, f.app.store().gatewayState(), Clock.systemUTC())
          .storeNow();
      StringWriter out = new StringWriter();
      int code =
          Main.run(
              new String[] {"status"},
              Map.of("TELEGRAM_BOT_TOKEN", TOKEN),
              f.root,
              new PrintWriter(out, true),
              new PrintWriter(out, true));
      assertThat(code).as(out.toString()).isZero();
      assertThat(out.toString())
          .contains("GATEWAY", "telegram", "failing", "TELEGRAM_BOT_TOKEN")
          .doesNotContain(TOKEN);
      gateway.close();
      String logFile = Files.readString(f.root.resolve("castra/logs/legio.log"));
      assertThat(logFile).contains("telegram").doesNotContain(TOKEN);
    }
  }

  @Test
  void theCompositionRootBuildsTheEnabledGatewayUnstarted() throws Exception {
    try (FakeTelegram telegram = new FakeTelegram(TOKEN);
        TelegramFixture f = new TelegramFixture(dir, telegram.url(), "")) {
      List<dev.legio.app.gateway.Gateway> all = f.app.gateways().all();
      assertThat(all).hasSize(1);
      assertThat(all.get(0).name()).isEqualTo("telegram");
      assertThat(all.get(0).routes()).isEmpty(); // polling: nothing to mount
      assertThat(telegram.calls).isEmpty();
    }
  }

  @Test
  void aTokenNoUrlCanHoldIsFailingWithoutQuotingIt() throws Exception {
    String broken = "123456:has a \"blank\" secret-part";
    try (FakeTelegram telegram = new FakeTelegram(TOKEN);
        TelegramFixture f = new TelegramFixture(dir, telegram.url(), "", broken, null)) {
      TelegramGateway gateway = f.gateway();
      gateway.start();
      await("failing", () -> gateway.health().state() == GatewayHealth.State.FAILING);
      assertThat(gateway.health().detail())
          .contains("TELEGRAM_BOT_TOKEN", "BotFather")
          .doesNotContain("secret-part", "blank");
    }
  }

  @Test
  void aMissingTokenIsFailingAtOnceNamingTheVariable() throws Exception {
    try (FakeTelegram telegram = new FakeTelegram(TOKEN);
        TelegramFixture f = new TelegramFixture(dir, telegram.url(), "", null, null)) {
      TelegramGateway gateway = f.gateway();
      gateway.start();
      assertThat(gateway.health().state()).isEqualTo(GatewayHealth.State.FAILING);
      assertThat(gateway.health().detail())
          .startsWith("TELEGRAM_BOT_TOKEN is not set: put the bot token BotFather gave you");
      assertThat(telegram.calls).isEmpty();
    }
  }

  @Test
  void oneNodePollsAtATimeAndAnotherTakesOverWhenItStops() throws Exception {
    try (FakeTelegram telegram = new FakeTelegram(TOKEN);
        TelegramFixture f = new TelegramFixture(dir, telegram.url(), "")) {
      TelegramGateway a = f.gateway();
      TelegramGateway b = f.gateway();
      a.start();
      await("a connected", () -> a.health().state() == GatewayHealth.State.CONNECTED);
      b.start();
      await(
          "b standing by",
          () -> b.health().detail().startsWith("another Legio node polls Telegram"));
      assertThat(b.health().state()).isEqualTo(GatewayHealth.State.WAITING);
      telegram.userWrites(OPERATOR, "private", OPERATOR, "Caesar", "@vorenus one");
      await("a answers", () -> telegram.sentTo("1001").size() == 1);
      assertThat(a.health().messagesIn()).isEqualTo(1);
      assertThat(b.health().messagesIn()).isZero();

      a.close();
      await("b takes over", () -> b.health().state() == GatewayHealth.State.CONNECTED);
      telegram.userWrites(OPERATOR, "private", OPERATOR, "Caesar", "@vorenus two");
      await("b answers", () -> telegram.sentTo("1001").size() == 2);
      assertThat(b.health().messagesIn()).isEqualTo(1);
      assertThat(fromCaesar(f)).containsExactly("@vorenus one", "@vorenus two");
    }
  }
}
