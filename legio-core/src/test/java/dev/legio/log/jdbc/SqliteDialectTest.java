package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

class SqliteDialectTest {
  private final SqliteDialect dialect = new SqliteDialect();

  @Test
  void aLockedDatabaseSaysWhichProgramToLookForAndWhatToDo() {
    for (SQLiteErrorCode code :
        new SQLiteErrorCode[] {
          SQLiteErrorCode.SQLITE_BUSY,
          SQLiteErrorCode.SQLITE_BUSY_SNAPSHOT,
          SQLiteErrorCode.SQLITE_LOCKED
        }) {
      String said =
          dialect.explain(new SQLiteException("[" + code.name() + "] database is locked", code));
      assertThat(said)
          .as(code.name())
          .startsWith("[" + code.name() + "] database is locked")
          .contains("another program has held the database file's write lock")
          .contains("sqlite3 shell");
    }
  }

  @Test
  void anyOtherFailureIsTheDatabasesOwnMessage() {
    SQLException full =
        new SQLiteException("[SQLITE_FULL] disk is full", SQLiteErrorCode.SQLITE_FULL);
    assertThat(dialect.explain(full)).isEqualTo("[SQLITE_FULL] disk is full");
  }
}
