package dev.legio.app.gateway.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SharedOwedReplies} on a real SQLite database shared by two "nodes". */
class SharedOwedRepliesTest {
  @TempDir Path dir;

  @Test
  void repliesSurviveInTheDatabaseAndOneNodeAtATimeSendsThem() {
    try (LegioStore store = open()) {
      SharedOwedReplies a = shared(store);
      SharedOwedReplies b = shared(store);
      a.add(
          List.of(
              new OwedReply(0, "C1", "1700.1", 0, "one", null, "42"),
              new OwedReply(0, "C1", "1700.1", 1, "two", null)));

      assertThat(b.pending())
          .extracting(OwedReply::chat, OwedReply::thread, OwedReply::text, OwedReply::pingUser)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("C1", "1700.1", "one", "42"),
              org.assertj.core.groups.Tuple.tuple("C1", "1700.1", "two", null));

      assertThat(a.takeTurn()).isTrue();
      assertThat(a.takeTurn()).as("renewed").isTrue();
      assertThat(b.takeTurn()).as("a is sending").isFalse();
      a.forget(a.pending().get(0).id());
      a.endTurn();
      assertThat(b.takeTurn()).as("a's round is over").isTrue();
      assertThat(b.pending()).extracting(OwedReply::text).containsExactly("two");
      b.endTurn();
    }
  }

  private SharedOwedReplies shared(LegioStore store) {
    return new SharedOwedReplies(
        store.gatewayState(),
        store.jobLeases(),
        "slack",
        Duration.ofSeconds(30),
        Clock.systemUTC());
  }

  private LegioStore open() {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(
            dir.resolve("castra/praetorium.db"), 4096, false, 4, Clock.systemUTC()));
  }
}
