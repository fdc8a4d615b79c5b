package dev.legio.log.jdbc;

import dev.legio.log.InvalidMessageException;
import dev.legio.log.Message;
import dev.legio.log.MessageLogException;
import dev.legio.log.Timestamps;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.sqlite.SQLiteConfig;

/**
 * Reads the messages of a Legio {@code praetorium.db} (Legio's original schema, or one this project
 * migrated) in the order they were written, a page at a time, without changing the file.
 */
public final class LegioDatabaseReader implements AutoCloseable {
  private final Path file;
  private final Connection connection;
  private final long total;
  private long lastRowid = 0;

  public LegioDatabaseReader(Path file) {
    this.file = file;
    if (!Files.isRegularFile(file)) {
      throw new InvalidMessageException(file + " does not exist or is not a file");
    }
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    try {
      connection = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
      try (Statement s = connection.createStatement();
          ResultSet r = s.executeQuery("SELECT count(*) FROM nuntii")) {
        r.next();
        total = r.getLong(1);
      }
    } catch (SQLException e) {
      String why =
          String.valueOf(e.getMessage()).contains("SQLITE_NOTADB")
              ? "it is not a SQLite database"
              : String.valueOf(e.getMessage()).contains("no such table")
                  ? "it has no nuntii table"
                  : "its nuntii table cannot be read: " + e.getMessage();
      throw new IllegalArgumentException(
          file
              + " is not a Legio praetorium ("
              + why
              + "): name the praetorium.db of a Legio workspace's castra",
          e);
    }
  }

  /** How many messages the file holds. */
  public long total() {
    return total;
  }

  /** The next page of at most {@code max} messages; empty when all have been read. */
  public List<Message> next(int max) {
    List<Message> page = new ArrayList<>(max);
    try (PreparedStatement s =
        connection.prepareStatement(
            "SELECT rowid, id, sender, text, audience, timestamp, reply_to FROM nuntii"
                + " WHERE rowid > ? ORDER BY rowid LIMIT ?")) {
      s.setLong(1, lastRowid);
      s.setInt(2, max);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          lastRowid = r.getLong(1);
          page.add(read(r));
        }
      }
    } catch (SQLException e) {
      throw new MessageLogException("reading " + file + " failed: " + e.getMessage(), e);
    }
    return page;
  }

  private Message read(ResultSet r) throws SQLException {
    String id = r.getString(2);
    try {
      String replyTo = r.getString(7);
      return new Message(
          0,
          UUID.fromString(id),
          r.getString(3),
          r.getString(4),
          AudienceJson.read(r.getString(5)),
          Timestamps.parse(r.getString(6)),
          replyTo == null || replyTo.isEmpty() ? null : UUID.fromString(replyTo));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidMessageException(
          file
              + ": message at row "
              + r.getLong(1)
              + " (id "
              + id
              + ") cannot be imported: "
              + e.getMessage()
              + ". Fix or delete that row and import again; messages already imported are kept"
              + " and skipped.");
    }
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new MessageLogException("closing " + file + " failed", e);
    }
  }
}
