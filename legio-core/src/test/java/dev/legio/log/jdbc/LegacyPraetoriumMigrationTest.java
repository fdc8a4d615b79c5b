package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.MessageLogException;
import dev.legio.log.NewMessage;
import dev.legio.testing.LegioPraetoriumFile;
import dev.legio.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An existing praetorium.db written by Legio opens and is migrated in place without loss. */
class LegacyPraetoriumMigrationTest {
  @TempDir Path dir;

  static List<String[]> legioRows() {
    List<String[]> rows = new ArrayList<>();
    rows.add(
        new String[] {
          "11111111-1111-4111-8111-111111111111",
          "caesar",
          "What's the status?",
          "[\"legatus\"]",
          "2026-02-15T12:00:00+00:00",
          null
        });
    rows.add(
        new String[] {
          "22222222-2222-4222-8222-222222222222",
          "legatus",
          "All quiet.",
          "[\"caesar\"]",
          "2026-02-15T12:00:00.250000+00:00",
          "11111111-1111-4111-8111-111111111111"
        });
    // Same timestamp as the next one: the order they were written in decides.
    rows.add(
        new String[] {
          "33333333-3333-4333-8333-333333333333",
          "caesar",
          "@vorenus @pullo compare",
          "[\"vorenus\", \"pullo\"]",
          "2026-02-15T12:01:00+00:00",
          null
        });
    rows.add(
        new String[] {
          "44444444-4444-4444-8444-444444444444",
          "vorenus",
          "my position",
          "[\"caesar\"]",
          "2026-02-15T12:01:00+00:00",
          "33333333-3333-4333-8333-333333333333"
        });
    rows.add(
        new String[] {
          "55555555-5555-4555-8555-555555555555",
          "legatus",
          "Hear ye <all>",
          "[\"all\"]",
          "2026-02-15T12:02:00.000001+00:00",
          null
        });
    return rows;
  }

  private MessageLog open(Path file) {
    return JdbcMessageLogs.openSqlite(
        new JdbcMessageLogs.SqliteOptions(
            file, 1 << 20, false, 2, MutableClock.at("2026-03-01T00:00:00Z")));
  }

  @Test
  void legioDatabaseIsMigratedInPlaceWithoutLoss() throws Exception {
    Path file = dir.resolve("praetorium.db");
    List<String[]> rows = legioRows();
    LegioPraetoriumFile.create(file, rows);

    try (MessageLog log = open(file)) {
      List<Message> all = log.history(100);
      assertThat(all)
          .extracting(m -> m.id().toString())
          .containsExactly(rows.stream().map(r -> r[0]).toArray(String[]::new));
      assertThat(all).extracting(Message::sequence).containsExactly(1L, 2L, 3L, 4L, 5L);
      assertThat(all.get(1).replyTo()).isEqualTo(all.get(0).id());
      assertThat(all.get(2).audience()).isEqualTo(Audience.of("vorenus", "pullo"));
      assertThat(log.visibleTo("pullo", 10))
          .extracting(Message::text)
          .containsExactly("@vorenus @pullo compare", "Hear ye <all>");
      // vorenus sees its own reply to caesar in a log written before senders saw their messages.
      assertThat(log.visibleTo("vorenus", 10))
          .extracting(Message::text)
          .containsExactly("@vorenus @pullo compare", "my position", "Hear ye <all>");
      assertThat(log.thread(all.get(3).id()).ancestors()).containsExactly(all.get(2));

      Message next =
          log.append(
              NewMessage.of("caesar", Audience.of("vorenus"), "new").replyingTo(all.get(3).id()));
      assertThat(next.sequence()).isEqualTo(6);
    }

    // Legio's columns hold exactly what they held before.
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT id, sender, text, audience, timestamp, reply_to FROM nuntii ORDER BY seq LIMIT 5")) {
      for (String[] row : rows) {
        assertThat(r.next()).isTrue();
        for (int i = 0; i < 6; i++) {
          assertThat(r.getString(i + 1)).isEqualTo(row[i]);
        }
      }
    }

    // Opening again migrates nothing and loses nothing.
    try (MessageLog log = open(file)) {
      assertThat(log.size()).isEqualTo(6);
    }
  }

  @Test
  void aFileThatIsNotADatabaseGivesAClearErrorAndIsLeftAlone() throws Exception {
    Path file = dir.resolve("praetorium.db");
    Files.writeString(file, "this is not a database, it is a shopping list\n".repeat(200));
    byte[] before = Files.readAllBytes(file);

    assertThatThrownBy(() -> open(file))
        .isInstanceOf(MessageLogException.class)
        .hasMessageContaining("cannot open the message log at " + file)
        .hasMessageContaining("move it aside");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  @Test
  void aTextFileOrAFolderIsToldAsWhatItIsAndNothingIsLeftBesideIt() throws Exception {
    Path text = Files.writeString(dir.resolve("archive.jsonl"), "{\"seq\":1}\n");
    Path folder = Files.createDirectories(dir.resolve("castra"));

    assertThatThrownBy(() -> open(text))
        .isInstanceOf(dev.legio.errors.UsageError.class)
        .hasMessage(
            "cannot open the message log at "
                + text
                + " ([praetorium] sqlite_path in legio.toml, or LEGIO_DB_URL): it is not a SQLite"
                + " database (it holds text or another format): move it aside, or point the"
                + " setting at Legio's praetorium.db or a new file.");
    assertThatThrownBy(() -> open(folder))
        .isInstanceOf(dev.legio.errors.UsageError.class)
        .hasMessageContaining(folder + " ([praetorium] sqlite_path in legio.toml, or LEGIO_DB_URL)")
        .hasMessageContaining("it is a folder, not a database file")
        .hasMessageNotContaining("It is a Legio database");
    try (java.util.stream.Stream<Path> left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("archive.jsonl", "castra");
    }
    assertThat(folder).isEmptyDirectory();
  }

  @Test
  void aDatabaseOfAnotherProgramIsRefusedAndGetsNoTableOfLegios() throws Exception {
    Path file = dir.resolve("praetorium.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT)");
      s.execute("INSERT INTO users(name) VALUES ('ada')");
    }

    assertThatThrownBy(() -> open(file))
        .isInstanceOf(MessageLogException.class)
        .hasMessageContaining("cannot open the message log at " + file)
        .hasMessageContaining("database of another program")
        .hasMessageContaining("move it aside");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
      List<String> tables = new ArrayList<>();
      while (r.next()) {
        tables.add(r.getString(1));
      }
      assertThat(tables).containsExactly("users");
    }
  }

  @Test
  void aDamagedLegioDatabaseSaysToRestoreIt() throws Exception {
    Path file = dir.resolve("praetorium.db");
    try (MessageLog log = open(file)) {
      for (int i = 0; i < 2_000; i++) {
        log.append(NewMessage.of("caesar", Audience.of("vorenus"), "message " + i));
      }
    }
    byte[] whole = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(whole, whole.length / 2));
    Files.deleteIfExists(dir.resolve("praetorium.db-wal"));
    Files.deleteIfExists(dir.resolve("praetorium.db-shm"));

    assertThatThrownBy(
            () -> {
              try (MessageLog log = open(file)) {
                log.size();
              }
            })
        .isInstanceOf(MessageLogException.class)
        .hasMessageContaining("damaged")
        .hasMessageContaining("backup")
        .hasMessageNotContaining("try again");
  }
}
