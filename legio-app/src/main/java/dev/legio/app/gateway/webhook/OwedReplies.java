package dev.legio.app.gateway.webhook;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a gateway keeps the replies it owes until its platform takes them ({@link ReplyOutbox}
 * sends them). Implementations are thread-safe.
 *
 * <p>Two kinds: {@link SharedOwedReplies} in Legio's database, which survive a restart and which
 * the nodes sharing the database send one node at a time; and {@link #inMemory()}, for replies that
 * carry a credential, which Legio never writes to disk.
 */
public interface OwedReplies {

  /** Keeps {@code replies}, in this order, after every reply kept before. */
  void add(List<OwedReply> replies);

  /** What is owed now, oldest first, with the ids {@link #forget} takes. */
  List<OwedReply> pending();

  /** Forgets a reply: it was sent, or can never be. */
  void forget(long id);

  /**
   * Takes (or keeps) the right to send what is owed; false when another node is sending it now.
   * {@link ReplyOutbox} calls it before each send and {@link #endTurn} after its round.
   */
  default boolean takeTurn() {
    return true;
  }

  /** Gives the right to send up, so another node may send what it owes without waiting. */
  default void endTurn() {}

  /** Replies kept in this process only: a restart loses them. */
  static OwedReplies inMemory() {
    return new OwedReplies() {
      private final AtomicLong ids = new AtomicLong();
      private final Map<Long, OwedReply> owed = new ConcurrentSkipListMap<>();

      @Override
      public synchronized void add(List<OwedReply> replies) {
        for (OwedReply reply : replies) {
          long id = ids.incrementAndGet();
          owed.put(id, reply.withId(id));
        }
      }

      @Override
      public List<OwedReply> pending() {
        return new ArrayList<>(owed.values());
      }

      @Override
      public void forget(long id) {
        owed.remove(id);
      }
    };
  }
}
