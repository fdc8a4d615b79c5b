package dev.legio.log.jdbc;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The archive of one prune, as its transaction sees it: the writer may run that transaction more
 * than once (again on a fresh connection when the kept one proved broken before the commit, or
 * alone after another write spoiled the transaction they shared), and the archive is outside the
 * database, so a second run must not write the same messages to it again.
 *
 * <p>Rule: each message (by its sequence number) is handed to the archive at most once per prune; a
 * run that finds only messages already archived does not call it. A message archived by a run that
 * was rolled back and not removed by the next (a newer message now replies to it) stays in the
 * archive, as after a prune that failed: the archive then holds a copy of a message still in the
 * log.
 */
final class ArchivedOnce implements MessageLog.Archive {
  private final MessageLog.Archive archive;
  private final Set<Long> archived = new HashSet<>();

  ArchivedOnce(MessageLog.Archive archive) {
    this.archive = archive;
  }

  @Override
  public void write(List<Message> removed) throws IOException {
    List<Message> fresh = removed.stream().filter(m -> !archived.contains(m.sequence())).toList();
    if (fresh.isEmpty() && !removed.isEmpty()) {
      return;
    }
    archive.write(fresh);
    fresh.forEach(m -> archived.add(m.sequence()));
  }
}
