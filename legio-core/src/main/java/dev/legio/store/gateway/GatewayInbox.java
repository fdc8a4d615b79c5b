package dev.legio.store.gateway;

import dev.legio.delivery.jdbc.JdbcDeliveryLedger;
import dev.legio.log.MessageLogException;
import dev.legio.log.Timestamps;
import dev.legio.log.jdbc.SharedWriter;
import dev.legio.log.jdbc.SqlValues;
import dev.legio.session.LeaseHolder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The messages a webhook gateway has taken in and still owes a turn (table {@code gateway_inbox}),
 * on SQLite or PostgreSQL: what lets a process be killed during a turn without losing the message
 * whose platform was already told it arrived.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li><b>Taken in once</b>: {@link #takeIn} keeps a message and records its platform's delivery
 *       ids (in {@code gateway_deliveries}, as {@link JdbcDeliveryLedger} does) in one transaction,
 *       and keeps it only when no id has a live record and its {@code message_key} is not in the
 *       inbox: true for exactly one caller per message, across threads, processes and nodes. It
 *       runs before the platform is answered, so a process killed after answering loses nothing.
 *   <li><b>Claimed while its turn runs</b>: a message belongs to the {@link Claimant} that took it
 *       in until its claim runs out; the claimant renews its claims ({@link #renew}) while it
 *       lives.
 *   <li><b>Orphans are taken over</b>: a message is an {@linkplain #orphans orphan} when its claim
 *       ran out, or its holder is {@linkplain LeaseHolder#isGone gone} (it ran on this host and its
 *       process ended), or its holder had this process's host and pid under another claim (a
 *       restart that got the same pid, as the first process of a container does). {@link #takeOver}
 *       moves an orphan to the caller unless another took it first.
 *   <li><b>Answered once</b>: {@link #answer} keeps the turn's replies in {@code gateway_outbox}
 *       and deletes the message in one transaction, only while the caller still holds the claim: a
 *       message another process took over is answered by that process alone. The replies come out
 *       of the outbox together, in their order ({@link OutboxOrder}).
 * </ul>
 *
 * Writes run on the message log's writer ({@link SharedWriter}), reads on pool connections.
 */
public final class GatewayInbox {
  private static final String COLUMNS =
      "gateway, message_key, channel, chat_id, thread, user_id, user_name, text, claimed_by,"
          + " holder_host, holder_pid, claimed_until, received_at";

  private final DataSource pool;
  private final SqlValues values;
  private final SharedWriter writer;

  public GatewayInbox(DataSource pool, SqlValues values, SharedWriter writer) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.values = Objects.requireNonNull(values, "values");
    this.writer = Objects.requireNonNull(writer, "writer");
  }

  /**
   * A message a gateway took in.
   *
   * @param gateway the gateway's name ({@code slack})
   * @param messageKey the platform's id of the message, unique in the gateway (Slack: channel and
   *     {@code ts})
   * @param channel the channel session its turn runs in ({@code slack:C123})
   * @param chatId where its answer goes
   * @param thread where in the chat (Slack's {@code thread_ts}); null for the chat itself
   * @param userId the platform's id of who wrote it; null when unknown
   * @param userName their name; null when unknown
   * @param text what they wrote
   */
  public record Message(
      String gateway,
      String messageKey,
      String channel,
      String chatId,
      String thread,
      String userId,
      String userName,
      String text) {
    public Message {
      Objects.requireNonNull(gateway, "gateway");
      Objects.requireNonNull(messageKey, "messageKey");
      Objects.requireNonNull(channel, "channel");
      Objects.requireNonNull(chatId, "chatId");
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * Who claims messages: one running process, under an id of its own (so that a later process with
   * the same host and pid is told apart), on {@code holder}.
   */
  public record Claimant(String id, LeaseHolder holder) {
    /** This process, under a new id. */
    public static Claimant thisProcess() {
      return new Claimant("inbox-" + UUID.randomUUID(), LeaseHolder.thisProcess());
    }
  }

  /** A message kept in the inbox: its row id, who claims it and until when, when it came in. */
  public record Kept(
      long id, Message message, Claimant claimant, Instant claimedUntil, Instant receivedAt) {}

  /**
   * Keeps {@code message}, claimed by {@code by} until {@code claimedUntil}, and records its {@code
   * deliveryIds} for {@code keep}, in one transaction.
   *
   * @return the message's row id when it was taken in now; 0 when it, or one of its deliveries, was
   *     taken in before
   */
  public long takeIn(
      Message message,
      List<String> deliveryIds,
      Duration keep,
      Claimant by,
      Instant now,
      Instant claimedUntil) {
    Instant at = Timestamps.truncate(now);
    List<SharedWriter.Update> updates = new ArrayList<>();
    String notDelivered =
        deliveryIds.isEmpty()
            ? "TRUE"
            : "NOT " + JdbcDeliveryLedger.liveRecordOf(deliveryIds.size());
    updates.add(
        new SharedWriter.Update(
            "INSERT INTO gateway_inbox ("
                + COLUMNS
                + ") SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE "
                + notDelivered
                + " ON CONFLICT (gateway, message_key) DO NOTHING",
            s -> {
              int i = bindRow(s, message, by, claimedUntil, at);
              if (!deliveryIds.isEmpty()) {
                s.setString(i++, message.gateway());
                values.bindTimestamp(s, i++, at);
                for (String id : deliveryIds) {
                  s.setString(i++, id);
                }
              }
            }));
    for (String id : deliveryIds) {
      updates.add(JdbcDeliveryLedger.take(values, message.gateway(), id, now, keep));
    }
    if (writer.executeUpdates(updates)[0] == 0) {
      return 0;
    }
    return idOf(message);
  }

  private int bindRow(
      PreparedStatement s, Message m, Claimant by, Instant claimedUntil, Instant receivedAt)
      throws SQLException {
    s.setString(1, m.gateway());
    s.setString(2, m.messageKey());
    s.setString(3, m.channel());
    s.setString(4, m.chatId());
    s.setString(5, m.thread());
    s.setString(6, m.userId());
    s.setString(7, m.userName());
    s.setString(8, m.text());
    s.setString(9, by.id());
    s.setString(10, by.holder().host());
    s.setLong(11, by.holder().pid());
    values.bindTimestamp(s, 12, Timestamps.truncate(claimedUntil));
    values.bindTimestamp(s, 13, receivedAt);
    return 14;
  }

  private long idOf(Message message) {
    try (Connection c = pool.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT id FROM gateway_inbox WHERE gateway = ? AND message_key = ?")) {
      s.setString(1, message.gateway());
      s.setString(2, message.messageKey());
      try (ResultSet row = s.executeQuery()) {
        if (row.next()) {
          return row.getLong(1);
        }
      }
    } catch (SQLException e) {
      throw failure("reading a message " + message.gateway() + " took in", e);
    }
    throw new MessageLogException(
        "a message " + message.gateway() + " took in is no longer in gateway_inbox", null);
  }

  /** Extends every claim of {@code by} to {@code until}; returns how many messages it holds. */
  public int renew(Claimant by, Instant until) {
    return writer.executeUpdate(
        "UPDATE gateway_inbox SET claimed_until = ? WHERE claimed_by = ?",
        s -> {
          values.bindTimestamp(s, 1, Timestamps.truncate(until));
          s.setString(2, by.id());
        });
  }

  /** Every message {@code gateway} keeps, oldest first. */
  public List<Kept> kept(String gateway) {
    List<Kept> out = new ArrayList<>();
    try (Connection c = pool.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT id, " + COLUMNS + " FROM gateway_inbox WHERE gateway = ? ORDER BY id")) {
      s.setString(1, gateway);
      try (ResultSet row = s.executeQuery()) {
        while (row.next()) {
          out.add(
              new Kept(
                  row.getLong(1),
                  new Message(
                      row.getString(2),
                      row.getString(3),
                      row.getString(4),
                      row.getString(5),
                      row.getString(6),
                      row.getString(7),
                      row.getString(8),
                      row.getString(9)),
                  new Claimant(
                      row.getString(10), new LeaseHolder(row.getString(11), row.getLong(12))),
                  values.readTimestamp(row, 13),
                  values.readTimestamp(row, 14)));
        }
      }
    } catch (SQLException e) {
      throw failure("reading the messages " + gateway + " took in", e);
    }
    return out;
  }

  /** The messages of {@code gateway} that {@code me} may take over at {@code now}, oldest first. */
  public List<Kept> orphans(String gateway, Claimant me, Instant now) {
    return kept(gateway).stream().filter(k -> orphaned(k, me, now)).toList();
  }

  private static boolean orphaned(Kept k, Claimant me, Instant now) {
    if (k.claimant().id().equals(me.id())) {
      return false;
    }
    return !k.claimedUntil().isAfter(now)
        || k.claimant().holder().isGone()
        || k.claimant().holder().equals(me.holder());
  }

  /**
   * Moves {@code orphan} to {@code me}, claimed until {@code until}; false when another took it
   * first or it was answered meanwhile.
   */
  public boolean takeOver(Kept orphan, Claimant me, Instant until) {
    return writer.executeUpdate(
            "UPDATE gateway_inbox SET claimed_by = ?, holder_host = ?, holder_pid = ?,"
                + " claimed_until = ? WHERE id = ? AND claimed_by = ?",
            s -> {
              s.setString(1, me.id());
              s.setString(2, me.holder().host());
              s.setLong(3, me.holder().pid());
              values.bindTimestamp(s, 4, Timestamps.truncate(until));
              s.setLong(5, orphan.id());
              s.setString(6, orphan.claimant().id());
            })
        == 1;
  }

  /**
   * Keeps {@code replies} as owed by the message's gateway and deletes message {@code id}, in one
   * transaction, if {@code by} still claims it; false (and nothing kept) when it does not.
   */
  public boolean answer(
      long id, Claimant by, List<GatewayStateStore.Outbound> replies, Instant now) {
    Instant at = Timestamps.truncate(now);
    SharedWriter.Binder claimed =
        s -> {
          s.setLong(1, id);
          s.setString(2, by.id());
        };
    List<SharedWriter.Update> updates = new ArrayList<>();
    // Locks the row first (PostgreSQL), so that no take-over lands between the check and the
    // delete.
    updates.add(
        new SharedWriter.Update(
            "UPDATE gateway_inbox SET claimed_by = claimed_by WHERE id = ? AND claimed_by = ?",
            claimed));
    if (!replies.isEmpty()) {
      updates.add(OutboxOrder.lockForMessage(id, by.id()));
    }
    for (GatewayStateStore.Outbound reply : replies) {
      updates.add(
          new SharedWriter.Update(
              GatewayStateStore.OUTBOX_INSERT
                  + " SELECT gateway, ?, ?, ?, ?, ? FROM gateway_inbox WHERE id = ? AND"
                  + " claimed_by = ?",
              s -> {
                s.setString(1, reply.chatId());
                s.setString(2, reply.thread());
                s.setString(3, reply.text());
                s.setString(4, reply.pingUser());
                values.bindTimestamp(s, 5, at);
                s.setLong(6, id);
                s.setString(7, by.id());
              }));
    }
    updates.add(
        new SharedWriter.Update(
            "DELETE FROM gateway_inbox WHERE id = ? AND claimed_by = ?", claimed));
    int[] counts = writer.executeUpdates(updates);
    return counts[counts.length - 1] == 1;
  }

  private static MessageLogException failure(String doing, SQLException e) {
    return new MessageLogException(doing + " failed: " + e.getMessage(), e);
  }
}
