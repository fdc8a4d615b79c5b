package dev.legio.testing;

import dev.legio.log.ImportResult;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.MessageThread;
import dev.legio.log.NewMessage;
import dev.legio.log.PruneResult;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The part of a {@link MessageLog} a turn uses (append, find, what a viewer may see between two
 * sequence numbers), in memory, for the session rules' unit tests that need no database. The other
 * operations are not part of a turn and throw; the real logs are tested by {@code
 * MessageLogContract}.
 */
public final class InMemoryMessageLog implements MessageLog {
  private final List<Message> messages = new ArrayList<>();
  private final Clock clock;

  public InMemoryMessageLog(Clock clock) {
    this.clock = clock;
  }

  @Override
  public synchronized Message append(NewMessage m) {
    if (m.id() != null && find(m.id()).isPresent()) {
      throw new dev.legio.log.MessageLogException("message " + m.id() + " is in the log already");
    }
    Message stored =
        new Message(
            messages.size() + 1L,
            m.id() != null ? m.id() : UUID.randomUUID(),
            m.sender(),
            m.text(),
            m.audience(),
            clock.instant(),
            m.replyTo());
    messages.add(stored);
    return stored;
  }

  @Override
  public synchronized List<Message> appendAll(List<NewMessage> batch) {
    return batch.stream().map(this::append).toList();
  }

  @Override
  public synchronized Optional<Message> find(UUID id) {
    return messages.stream().filter(m -> m.id().equals(id)).findFirst();
  }

  @Override
  public synchronized List<Message> visibleTo(String viewer, int limit) {
    return visibleTo(viewer, 0, Long.MAX_VALUE, limit);
  }

  @Override
  public synchronized List<Message> visibleTo(String viewer, long afterSequence, int limit) {
    return visibleTo(viewer, afterSequence, Long.MAX_VALUE, limit);
  }

  @Override
  public synchronized List<Message> visibleTo(
      String viewer, long afterSequence, long beforeSequence, int limit) {
    List<Message> visible =
        messages.stream()
            .filter(m -> m.sequence() > afterSequence && m.sequence() < beforeSequence)
            .filter(m -> m.isVisibleTo(viewer))
            .toList();
    return visible.subList(Math.max(0, visible.size() - limit), visible.size());
  }

  @Override
  public synchronized List<Message> history(int limit) {
    return messages.subList(Math.max(0, messages.size() - limit), messages.size());
  }

  /** Every message, in order. */
  public synchronized List<Message> all() {
    return List.copyOf(messages);
  }

  @Override
  public synchronized long size() {
    return messages.size();
  }

  @Override
  public synchronized long lastSequence() {
    return messages.size();
  }

  @Override
  public long maxTextBytes() {
    return Long.MAX_VALUE;
  }

  @Override
  public ImportResult importMessages(List<Message> imported) {
    throw new UnsupportedOperationException("not part of a turn");
  }

  @Override
  public MessageThread thread(UUID id) {
    throw new UnsupportedOperationException("not part of a turn");
  }

  @Override
  public PruneResult prune(Instant olderThan, Archive archive) {
    throw new UnsupportedOperationException("not part of a turn");
  }

  @Override
  public void close() {}
}
