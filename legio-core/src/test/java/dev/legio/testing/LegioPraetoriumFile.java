package dev.legio.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;

/**
 * Writes a praetorium.db the way Legio's Python code did: its schema and PRAGMAs, written by hand
 * here on purpose (not from this project's migrations), so that tests of migration and import start
 * from Legio's real format.
 */
public final class LegioPraetoriumFile {
  private LegioPraetoriumFile() {}

  /** {@code count} rows from caesar to vorenus, with texts m0, m1, ... and random ids. */
  public static List<String[]> caesarToVorenus(int count) {
    List<String[]> rows = new java.util.ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(
          new String[] {
            java.util.UUID.randomUUID().toString(),
            "caesar",
            "m" + i,
            "[\"vorenus\"]",
            "2026-02-15T12:00:00+00:00",
            null
          });
    }
    return rows;
  }

  /** Creates {@code file} with rows of (id, sender, text, audience JSON, timestamp, reply_to). */
  public static void create(Path file, List<String[]> rows) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      s.execute("PRAGMA journal_mode=WAL");
      s.execute("PRAGMA foreign_keys=ON");
      s.execute(
          """
          CREATE TABLE nuntii (
              id TEXT PRIMARY KEY,
              sender TEXT NOT NULL,
              text TEXT NOT NULL,
              audience TEXT NOT NULL,
              timestamp TEXT NOT NULL,
              reply_to TEXT,
              FOREIGN KEY (reply_to) REFERENCES nuntii(id)
          )""");
      s.execute("CREATE INDEX idx_nuntii_timestamp ON nuntii(timestamp)");
      s.execute("CREATE INDEX idx_nuntii_sender ON nuntii(sender)");
      c.setAutoCommit(false);
      try (PreparedStatement insert =
          c.prepareStatement("INSERT INTO nuntii VALUES (?,?,?,?,?,?)")) {
        for (String[] row : rows) {
          for (int i = 0; i < 6; i++) {
            insert.setString(i + 1, row[i]);
          }
          insert.executeUpdate();
        }
      }
      c.commit();
    }
  }
}
