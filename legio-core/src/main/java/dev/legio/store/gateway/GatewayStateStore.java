package dev.legio.store.gateway;

import dev.legio.log.MessageLogException;
import dev.legio.log.Timestamps;
import dev.legio.log.jdbc.SharedWriter;
import dev.legio.log.jdbc.SqlValues;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * What the chat gateways keep in Legio's database (tables {@code gateway_state} and {@code
 * gateway_outbox}), on SQLite or PostgreSQL.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li><b>Exactly once</b>: {@link #commitTurn} stores a gateway's next update offset and the
 *       replies it owes in one transaction, after the turn was logged. The offset never goes back.
 *       A process that dies before sending finds the replies in {@link #pending} at its next start
 *       and sends them ({@link #sent} deletes each once sent); it never fetches the update again. A
 *       webhook gateway, which has no offset, stores what it owes with {@link #owe} before its
 *       first attempt, so a platform that is down for a while delays a reply but cannot lose it.
 *   <li><b>One answer's parts together</b>: the replies kept in one call ({@link #owe}, {@link
 *       #commitTurn}, {@link GatewayInbox#answer}) come out of {@link #pending} in a row, in their
 *       order, after those kept before, whoever keeps others at the same time ({@link
 *       OutboxOrder}).
 *   <li><b>Health across processes</b>: {@link #report} stores a gateway's health; {@link #reports}
 *       reads every gateway's last report.
 * </ul>
 *
 * Writes run on the message log's writer ({@link SharedWriter}), reads on pool connections.
 */
public final class GatewayStateStore {
  private static final String ENSURE_ROW =
      "INSERT INTO gateway_state (gateway) VALUES (?) ON CONFLICT (gateway) DO NOTHING";
  private static final String ADVANCE =
      "UPDATE gateway_state SET next_offset = ? WHERE gateway = ? AND next_offset < ?";

  /** The head of an insert into {@code gateway_outbox}: its columns, before the values. */
  static final String OUTBOX_INSERT =
      "INSERT INTO gateway_outbox (gateway, chat_id, thread, text, ping_user, created_at)";

  private static final String OUTBOX = OUTBOX_INSERT + " VALUES (?, ?, ?, ?, ?, ?)";
  private static final String REPORT =
      "UPDATE gateway_state SET state = ?, detail = ?, messages_in = ?, messages_out = ?,"
          + " reported_at = ? WHERE gateway = ?";

  private final DataSource pool;
  private final SqlValues values;
  private final SharedWriter writer;

  public GatewayStateStore(DataSource pool, SqlValues values, SharedWriter writer) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.values = Objects.requireNonNull(values, "values");
    this.writer = Objects.requireNonNull(writer, "writer");
  }

  /**
   * A reply owed to a chat: its row id, the chat, the thread in it (null for the chat itself), the
   * text as the platform takes it, and the platform's id of the one user it may ping (Discord's
   * asker, on the line before an answer posted in the channel; null for no one, as for every other
   * reply).
   */
  public record Outbound(long id, String chatId, String thread, String text, String pingUser) {
    /** A reply that pings no one. */
    public Outbound(long id, String chatId, String thread, String text) {
      this(id, chatId, thread, text, null);
    }

    /** A reply to the chat itself, which pings no one. */
    public Outbound(long id, String chatId, String text) {
      this(id, chatId, null, text);
    }
  }

  /** The offset of the first update {@code gateway} has not processed; 0 when none was. */
  public long nextOffset(String gateway) {
    return readLong("SELECT next_offset FROM gateway_state WHERE gateway = ?", gateway).orElse(0L);
  }

  /**
   * Stores that every update before {@code nextOffset} is processed, with the replies owed for them
   * (chat id and text, in sending order), in one transaction.
   */
  public void commitTurn(String gateway, long nextOffset, List<Outbound> replies, Instant now) {
    List<SharedWriter.Update> updates = new ArrayList<>();
    updates.add(new SharedWriter.Update(ENSURE_ROW, s -> s.setString(1, gateway)));
    updates.add(
        new SharedWriter.Update(
            ADVANCE,
            s -> {
              s.setLong(1, nextOffset);
              s.setString(2, gateway);
              s.setLong(3, nextOffset);
            }));
    updates.addAll(inserts(gateway, replies, now));
    writer.executeUpdates(updates);
  }

  /**
   * Stores replies {@code gateway} owes for a message it took in without an offset (a webhook's),
   * in sending order, in one transaction.
   */
  public void owe(String gateway, List<Outbound> replies, Instant now) {
    if (!replies.isEmpty()) {
      writer.executeUpdates(inserts(gateway, replies, now));
    }
  }

  private List<SharedWriter.Update> inserts(String gateway, List<Outbound> replies, Instant now) {
    List<SharedWriter.Update> inserts = new ArrayList<>();
    if (!replies.isEmpty()) {
      inserts.add(OutboxOrder.lock(gateway));
    }
    for (Outbound reply : replies) {
      inserts.add(
          new SharedWriter.Update(
              OUTBOX,
              s -> {
                s.setString(1, gateway);
                s.setString(2, reply.chatId());
                s.setString(3, reply.thread());
                s.setString(4, reply.text());
                s.setString(5, reply.pingUser());
                values.bindTimestamp(s, 6, Timestamps.truncate(now));
              }));
    }
    return inserts;
  }

  /** The replies {@code gateway} still owes, oldest first. */
  public List<Outbound> pending(String gateway) {
    List<Outbound> out = new ArrayList<>();
    try (Connection c = pool.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT id, chat_id, thread, text, ping_user FROM gateway_outbox WHERE gateway = ?"
                    + " ORDER BY id")) {
      s.setString(1, gateway);
      try (ResultSet row = s.executeQuery()) {
        while (row.next()) {
          out.add(
              new Outbound(
                  row.getLong(1),
                  row.getString(2),
                  row.getString(3),
                  row.getString(4),
                  row.getString(5)));
        }
      }
    } catch (SQLException e) {
      throw failure("reading the replies " + gateway + " owes", e);
    }
    return out;
  }

  /** Forgets an owed reply once it was sent. */
  public void sent(long id) {
    writer.executeUpdate("DELETE FROM gateway_outbox WHERE id = ?", s -> s.setLong(1, id));
  }

  /** Stores {@code report} as its gateway's health. */
  public void report(GatewayReport report) {
    writer.executeUpdates(
        List.of(
            new SharedWriter.Update(ENSURE_ROW, s -> s.setString(1, report.gateway())),
            new SharedWriter.Update(
                REPORT,
                s -> {
                  s.setString(1, report.state());
                  s.setString(2, report.detail());
                  s.setLong(3, report.messagesIn());
                  s.setLong(4, report.messagesOut());
                  values.bindTimestamp(s, 5, Timestamps.truncate(report.reportedAt()));
                  s.setString(6, report.gateway());
                })));
  }

  /** Every gateway's last stored health, by name. */
  public List<GatewayReport> reports() {
    List<GatewayReport> out = new ArrayList<>();
    try (Connection c = pool.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT gateway, state, detail, messages_in, messages_out, reported_at FROM"
                    + " gateway_state WHERE state IS NOT NULL ORDER BY gateway");
        ResultSet row = s.executeQuery()) {
      while (row.next()) {
        out.add(
            new GatewayReport(
                row.getString(1),
                row.getString(2),
                row.getString(3) == null ? "" : row.getString(3),
                row.getLong(4),
                row.getLong(5),
                values.readTimestamp(row, 6)));
      }
    } catch (SQLException e) {
      throw failure("reading the gateways' health", e);
    }
    return out;
  }

  private Optional<Long> readLong(String sql, String gateway) {
    try (Connection c = pool.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, gateway);
      try (ResultSet row = s.executeQuery()) {
        return row.next() ? Optional.of(row.getLong(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw failure("reading the offset of " + gateway, e);
    }
  }

  private static MessageLogException failure(String doing, SQLException e) {
    return new MessageLogException(doing + " failed: " + e.getMessage(), e);
  }
}
