package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.log.Audience;
import dev.legio.log.MessageLog;
import dev.legio.log.MessageLogException;
import dev.legio.log.NewMessage;
import dev.legio.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SqliteAccess} on real SQLite files. Root writes files whatever their permissions, so the
 * end-to-end read-only case ({@link #aReadOnlyWorkspaceCanBeReadButNotWritten}) runs only as
 * another user; the rules it rests on are tested here with the file system's answer given.
 */
class SqliteAccessTest {
  @TempDir Path dir;

  private JdbcMessageLogs.SqliteOptions options(Path file) {
    return new JdbcMessageLogs.SqliteOptions(
        file, 4096, false, 2, MutableClock.at("2026-02-15T12:00:00Z"));
  }

  /** A migrated praetorium.db holding one message, closed; its migration lock removed. */
  private Path current() throws Exception {
    Path file = dir.resolve("castra/praetorium.db");
    try (JdbcDatabase database = JdbcDatabase.openSqlite(options(file));
        MessageLog log = database.openMessageLog(4096, MutableClock.at("2026-02-15T12:00:00Z"))) {
      log.append(NewMessage.of("caesar", Audience.of("vorenus"), "scout the north road"));
    }
    Files.delete(SqliteMigrations.lockFile(file));
    return file;
  }

  @Test
  void aReadingOpenOfACurrentDatabaseTakesNoLockAndWritesNothing() throws Exception {
    Path file = current();
    byte[] before = Files.readAllBytes(file);

    try (JdbcDatabase database = JdbcDatabase.openSqliteForReading(options(file));
        MessageLog log = database.openMessageLog(4096, MutableClock.at("2026-02-15T12:00:00Z"))) {
      assertThat(log.visibleTo("caesar", 0, 10))
          .singleElement()
          .satisfies(m -> assertThat(m.text()).isEqualTo("scout the north road"));
      assertThatThrownBy(
              () -> log.append(NewMessage.of("caesar", Audience.of("pullo"), "hold the bridge")))
          .isInstanceOf(MessageLogException.class)
          .hasMessageContaining("readonly");
    }

    assertThat(SqliteMigrations.lockFile(file)).doesNotExist();
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  @Test
  void aReadingOpenOfAnOlderSchemaMigratesItWhenItCanBeWritten() throws Exception {
    Path file = dir.resolve("castra/praetorium.db");

    try (JdbcDatabase database = JdbcDatabase.openSqliteForReading(options(file))) {
      assertThat(database.health().pendingMigrations()).isEmpty();
    }
    assertThat(SqliteMigrations.lockFile(file)).exists();
  }

  @Test
  void aWritingOpenOfAReadOnlyWorkspaceIsRefusedSayingWhatToDo() {
    Path file = dir.resolve("praetorium.db");

    assertThatThrownBy(() -> SqliteAccess.requireWritable(file, false))
        .isInstanceOf(MessageLogException.class)
        .hasMessage(
            "the praetorium at "
                + file
                + " is read-only (this process cannot write it or its folder), and this command"
                + " writes to it: make the castra folder and praetorium.db writable, or work on a"
                + " writable copy. Commands that only read (history, usage, status, sessions list"
                + " and show) work on it as it is.");
    SqliteAccess.requireWritable(file, true);
    assertThat(SqliteAccess.writable(file)).isTrue();
  }

  @Test
  void aReadOnlyWorkspaceNeedingAMigrationIsRefusedNamingIt() {
    assertThat(SqliteAccess.needsMigrating(Path.of("/backup/praetorium.db"), List.of("V17")))
        .hasMessage(
            "the praetorium at /backup/praetorium.db needs migrating to this version of Legio"
                + " (V17), but it is read-only (this process cannot write it or its folder): open"
                + " it once with a writable castra folder and praetorium.db, or read a writable"
                + " copy.");
    assertThat(
            SqliteAccess.needsMigrating(
                Path.of("/backup/praetorium.db"), List.of("V1", "V2", "V3", "V4")))
        .hasMessageContaining("needs migrating to this version of Legio (4 migrations, V1 to V4)");
  }

  @Test
  void aFolderThatCannotBeWrittenIsReadImmutableUnlessTheWriteAheadLogIsBeside() throws Exception {
    Path file = current();

    String url = SqliteAccess.readingUrl(file, false);
    assertThat(url).startsWith("jdbc:sqlite:file:").endsWith("?immutable=1");
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        var rows = s.executeQuery("SELECT count(*) FROM nuntii")) {
      rows.next();
      assertThat(rows.getInt(1)).isEqualTo(1);
    }
    assertThat(SqliteAccess.readingUrl(file, true)).isEqualTo("jdbc:sqlite:" + file);

    Files.createFile(file.resolveSibling("praetorium.db-wal"));
    Files.createFile(file.resolveSibling("praetorium.db-shm"));
    assertThat(SqliteAccess.readingUrl(file, false)).isEqualTo("jdbc:sqlite:" + file);
  }

  @Test
  void aReadOnlyWorkspaceCanBeReadButNotWritten() throws Exception {
    Path file = current();
    Path castra = file.getParent();
    var readOnly = PosixFilePermissions.fromString("r--r--r--");
    Files.setPosixFilePermissions(file, readOnly);
    Files.setPosixFilePermissions(castra, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      if (Files.isWritable(castra)) {
        // Root writes whatever the permissions say (CI runs as root): for it the castra is
        // writable, so it is opened and migrated as usual, not refused.
        try (JdbcDatabase database = JdbcDatabase.openSqlite(options(file))) {
          assertThat(database).isNotNull();
        }
        assertThat(SqliteMigrations.lockFile(file)).exists();
        return;
      }

      try (JdbcDatabase database = JdbcDatabase.openSqliteForReading(options(file));
          MessageLog log = database.openMessageLog(4096, MutableClock.at("2026-02-15T12:00:00Z"))) {
        assertThat(log.visibleTo("caesar", 0, 10)).hasSize(1);
      }
      assertThatThrownBy(() -> JdbcDatabase.openSqlite(options(file)))
          .isInstanceOf(MessageLogException.class)
          .hasMessageContaining("is read-only");
      assertThat(SqliteMigrations.lockFile(file)).doesNotExist();
    } finally {
      Files.setPosixFilePermissions(castra, PosixFilePermissions.fromString("rwxr-xr-x"));
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }
  }
}
