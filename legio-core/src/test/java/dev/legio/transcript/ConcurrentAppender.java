package dev.legio.transcript;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * A child process for {@code FileTranscriptStoreTest}: appends N messages with a given tag to one
 * transcript, as fast as it can, each chained to the transcript's tip ({@link
 * TranscriptStore#appendToChain}). Arguments: dir, cwd, session id, tag, count, part limit.
 */
public final class ConcurrentAppender {
  private ConcurrentAppender() {}

  public static void main(String[] args) {
    FileTranscriptStore store =
        new FileTranscriptStore(
            Path.of(args[0]),
            Path.of(args[1]),
            Clock.systemUTC(),
            Long.parseLong(args[5]),
            Long.MAX_VALUE / 2);
    int count = Integer.parseInt(args[4]);
    String padding = "x".repeat(300);
    System.out.println("ready");
    System.out.flush();
    for (int i = 0; i < count; i++) {
      String text = args[3] + " " + i + " " + padding;
      store.appendToChain(args[2], (exists, tip) -> List.of(NewEntry.user(tip, text)));
    }
  }
}
