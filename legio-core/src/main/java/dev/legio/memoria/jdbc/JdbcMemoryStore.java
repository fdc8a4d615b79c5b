package dev.legio.memoria.jdbc;

import dev.legio.log.Timestamps;
import dev.legio.log.jdbc.SqlValues;
import dev.legio.memoria.MemoryEntry;
import dev.legio.memoria.MemoryKind;
import dev.legio.memoria.MemoryStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * Memoria in the praetorium's database ({@code [memoria] store = "database"}), SQLite or
 * PostgreSQL, in the tables {@code memoria_entries} (one row per entry, with its revocation and a
 * {@code version} counting its changes) and {@code memoria_notes} (one row per note, by position).
 * Every node on one PostgreSQL database sees every other node's changes as soon as they commit:
 * nothing is cached.
 *
 * <p>How {@link #update} stays atomic across nodes ({@link MemoryStore}'s first rule): it runs in
 * one transaction ({@link EntryTransaction}) that first locks the entry, PostgreSQL by {@code
 * SELECT ... FOR UPDATE} on its row, SQLite by beginning {@code IMMEDIATE} (the database's write
 * lock), so a second writer of the entry waits and then sees the first one's change. An entry that
 * does not exist yet has no row to lock: it is inserted with {@code ON CONFLICT DO NOTHING}, and
 * when another writer inserted it first (no row inserted) the transaction is rolled back and run
 * again, now finding and locking that writer's row. So of two nodes publishing one actum at once
 * both notes are kept, in commit order, and of two publishing one edictum the second is refused
 * ("already exists"), as in one process.
 *
 * <p>Notes a change appends are inserted; a change that rewrites earlier notes (an import that
 * replaces an entry) replaces them all. Reads are single statements, so they see one committed
 * state of an entry.
 */
public final class JdbcMemoryStore implements MemoryStore {
  private static final String ENTRY_COLUMNS =
      "e.name, e.revoked_by, e.revoked_at, e.revoke_reason, n.author, n.at, n.text";
  private static final String SELECT =
      "SELECT "
          + ENTRY_COLUMNS
          + " FROM memoria_entries e JOIN memoria_notes n ON n.kind = e.kind AND n.centurio ="
          + " e.centurio AND n.name = e.name WHERE e.kind = ? AND e.centurio = ?";
  private static final String ORDER = " ORDER BY e.name, n.position";
  private static final String LOCK_ENTRY =
      "SELECT version, revoked_by, revoked_at, revoke_reason FROM memoria_entries"
          + " WHERE kind = ? AND centurio = ? AND name = ?";
  private static final String NOTES =
      "SELECT author, at, text FROM memoria_notes WHERE kind = ? AND centurio = ? AND name = ?"
          + " ORDER BY position";
  private static final String INSERT_ENTRY =
      "INSERT INTO memoria_entries (kind, centurio, name, version, revoked_by, revoked_at,"
          + " revoke_reason) VALUES (?, ?, ?, 1, ?, ?, ?) ON CONFLICT DO NOTHING";
  private static final String UPDATE_ENTRY =
      "UPDATE memoria_entries SET version = version + 1, revoked_by = ?, revoked_at = ?,"
          + " revoke_reason = ? WHERE kind = ? AND centurio = ? AND name = ?";
  private static final String INSERT_NOTE =
      "INSERT INTO memoria_notes (kind, centurio, name, position, author, at, text)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?)";
  private static final String DELETE_NOTES =
      "DELETE FROM memoria_notes WHERE kind = ? AND centurio = ? AND name = ?";
  private static final String DELETE_ENTRY =
      "DELETE FROM memoria_entries WHERE kind = ? AND centurio = ? AND name = ?";
  private static final String NAMES =
      "SELECT name FROM memoria_entries WHERE kind = ? AND centurio = ?";
  private static final String OWNERS =
      "SELECT DISTINCT centurio FROM memoria_entries WHERE kind = 'commentarii'";

  private final DataSource pool;
  private final SqlValues values;
  private final EntryTransaction transactions;

  /**
   * @param pool connections to a database migrated with Legio's migrations, in auto-commit mode
   * @param values how that database stores timestamps
   */
  public JdbcMemoryStore(DataSource pool, SqlValues values) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.values = Objects.requireNonNull(values, "values");
    this.transactions = new EntryTransaction(pool, values.name());
  }

  @Override
  public List<MemoryEntry> list(MemoryKind kind, String centurio) {
    return select(kind, centurio, null);
  }

  @Override
  public Optional<MemoryEntry> find(MemoryKind kind, String centurio, String name) {
    return select(kind, centurio, Objects.requireNonNull(name, "name")).stream().findFirst();
  }

  private List<MemoryEntry> select(MemoryKind kind, String centurio, String name) {
    String sql = SELECT + (name == null ? "" : " AND e.name = ?") + ORDER;
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, kind.plural());
      statement.setString(2, owner(centurio));
      if (name != null) {
        statement.setString(3, name);
      }
      Map<String, List<MemoryEntry.Note>> notes = new TreeMap<>();
      Map<String, MemoryEntry.Revocation> revocations = new HashMap<>();
      try (ResultSet row = statement.executeQuery()) {
        while (row.next()) {
          String n = row.getString(1);
          List<MemoryEntry.Note> of = notes.get(n);
          if (of == null) {
            of = new ArrayList<>();
            notes.put(n, of);
            revocations.put(n, revocation(row, 2));
          }
          of.add(new MemoryEntry.Note(row.getString(5), ts(row, 6), row.getString(7)));
        }
      }
      List<MemoryEntry> entries = new ArrayList<>();
      notes.forEach(
          (n, of) -> entries.add(new MemoryEntry(kind, n, centurio, of, revocations.get(n))));
      return entries;
    } catch (SQLException e) {
      throw transactions.failure("reading the " + kind.plural(), e);
    }
  }

  @Override
  public MemoryEntry update(
      MemoryKind kind, String centurio, String name, UnaryOperator<MemoryEntry> change) {
    Objects.requireNonNull(change, "change");
    return transactions.run(
        "writing the " + kind.singular() + " '" + name + "'",
        connection -> {
          MemoryEntry current = lockAndRead(connection, kind, centurio, name);
          MemoryEntry next = Objects.requireNonNull(change.apply(current), "the changed entry");
          if (next.kind() != kind
              || !next.name().equals(name)
              || !Objects.equals(next.centurio(), centurio)) {
            throw new IllegalArgumentException("a change cannot move an entry to another name");
          }
          if (next.equals(current)) {
            return current;
          }
          if (current == null) {
            if (insertEntry(connection, next) == 0) {
              // Another writer inserted this entry since we looked: run again and lock its row.
              throw new EntryTransaction.Conflict();
            }
            insertNotes(connection, next, 0);
          } else {
            updateEntry(connection, next);
            if (startsWith(next.notes(), current.notes())) {
              insertNotes(connection, next, current.notes().size());
            } else {
              execute(connection, DELETE_NOTES, kind, centurio, name);
              insertNotes(connection, next, 0);
            }
          }
          return next;
        });
  }

  /** The entry, locked for this transaction (PostgreSQL: its row; SQLite holds the write lock). */
  private MemoryEntry lockAndRead(
      Connection connection, MemoryKind kind, String centurio, String name) throws SQLException {
    MemoryEntry.Revocation revocation;
    try (PreparedStatement lock =
        connection.prepareStatement(LOCK_ENTRY + transactions.forUpdate())) {
      bindKey(lock, 1, kind, centurio, name);
      try (ResultSet row = lock.executeQuery()) {
        if (!row.next()) {
          return null;
        }
        revocation = revocation(row, 2);
      }
    }
    List<MemoryEntry.Note> notes = new ArrayList<>();
    try (PreparedStatement select = connection.prepareStatement(NOTES)) {
      bindKey(select, 1, kind, centurio, name);
      try (ResultSet row = select.executeQuery()) {
        while (row.next()) {
          notes.add(new MemoryEntry.Note(row.getString(1), ts(row, 2), row.getString(3)));
        }
      }
    }
    if (notes.isEmpty()) {
      throw new SQLException(
          "the " + kind.singular() + " '" + name + "' has a row in memoria_entries but no notes");
    }
    return new MemoryEntry(kind, name, centurio, notes, revocation);
  }

  private int insertEntry(Connection connection, MemoryEntry e) throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(INSERT_ENTRY)) {
      bindKey(s, 1, e.kind(), e.centurio(), e.name());
      bindRevocation(s, 4, e.revocation());
      return s.executeUpdate();
    }
  }

  private void updateEntry(Connection connection, MemoryEntry e) throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(UPDATE_ENTRY)) {
      bindRevocation(s, 1, e.revocation());
      bindKey(s, 4, e.kind(), e.centurio(), e.name());
      s.executeUpdate();
    }
  }

  private void insertNotes(Connection connection, MemoryEntry e, int from) throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(INSERT_NOTE)) {
      for (int i = from; i < e.notes().size(); i++) {
        MemoryEntry.Note note = e.notes().get(i);
        bindKey(s, 1, e.kind(), e.centurio(), e.name());
        s.setInt(4, i);
        s.setString(5, note.author());
        values.bindTimestamp(s, 6, Timestamps.truncate(note.timestamp()));
        s.setString(7, note.text());
        s.addBatch();
      }
      s.executeBatch();
    }
  }

  private static boolean startsWith(List<MemoryEntry.Note> all, List<MemoryEntry.Note> prefix) {
    return all.size() >= prefix.size() && all.subList(0, prefix.size()).equals(prefix);
  }

  @Override
  public List<String> delete(MemoryKind kind, String centurio, String name) {
    return transactions.run(
        "deleting " + kind.plural(),
        connection -> {
          List<String> names = new ArrayList<>();
          if (name != null) {
            if (lockAndRead(connection, kind, centurio, name) != null) {
              names.add(name);
            }
          } else {
            try (PreparedStatement select =
                connection.prepareStatement(NAMES + transactions.forUpdate())) {
              select.setString(1, kind.plural());
              select.setString(2, owner(centurio));
              try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                  names.add(row.getString(1));
                }
              }
            }
            names.sort(null);
          }
          List<String> deleted = new ArrayList<>();
          for (String n : names) {
            // Its notes go with it (ON DELETE CASCADE, enforced on both databases).
            if (execute(connection, DELETE_ENTRY, kind, centurio, n) > 0) {
              deleted.add(n);
            }
          }
          return deleted;
        });
  }

  @Override
  public List<String> commentariiOwners() {
    List<String> owners = new ArrayList<>();
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(OWNERS);
        ResultSet row = statement.executeQuery()) {
      while (row.next()) {
        owners.add(row.getString(1));
      }
    } catch (SQLException e) {
      throw transactions.failure("listing the agents with commentarii", e);
    }
    owners.sort(null);
    return owners;
  }

  private int execute(
      Connection connection, String sql, MemoryKind kind, String centurio, String name)
      throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(sql)) {
      bindKey(s, 1, kind, centurio, name);
      return s.executeUpdate();
    }
  }

  private static void bindKey(
      PreparedStatement s, int from, MemoryKind kind, String centurio, String name)
      throws SQLException {
    s.setString(from, kind.plural());
    s.setString(from + 1, owner(centurio));
    s.setString(from + 2, name);
  }

  private void bindRevocation(PreparedStatement s, int from, MemoryEntry.Revocation r)
      throws SQLException {
    s.setString(from, r == null ? null : r.by());
    if (r == null) {
      s.setNull(from + 1, transactions.postgres() ? Types.TIMESTAMP_WITH_TIMEZONE : Types.VARCHAR);
    } else {
      values.bindTimestamp(s, from + 1, Timestamps.truncate(r.timestamp()));
    }
    s.setString(from + 2, r == null ? null : r.reason());
  }

  private MemoryEntry.Revocation revocation(ResultSet row, int from) throws SQLException {
    String by = row.getString(from);
    return by == null
        ? null
        : new MemoryEntry.Revocation(by, ts(row, from + 1), row.getString(from + 2));
  }

  private java.time.Instant ts(ResultSet row, int column) throws SQLException {
    return values.readTimestamp(row, column);
  }

  /** The {@code centurio} key column: the owner of commentarii, '' for edicta and acta. */
  private static String owner(String centurio) {
    return centurio == null ? "" : centurio;
  }
}
