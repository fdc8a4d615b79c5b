package dev.legio.transcript;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link FileTranscriptStore} whose next {@link #appendToChain}, once armed, stops under the
 * transcript's lock (after reading the tip, before writing) until {@link #resume} is counted down:
 * for a test to act while another thread's append is in flight. Everything else is the file
 * store's.
 */
final class PausingTranscriptStore implements TranscriptStore {
  private final FileTranscriptStore files;
  private final AtomicBoolean armed = new AtomicBoolean();
  final CountDownLatch paused = new CountDownLatch(1);
  final CountDownLatch resume = new CountDownLatch(1);

  PausingTranscriptStore(FileTranscriptStore files) {
    this.files = files;
  }

  void pauseNextAppend() {
    armed.set(true);
  }

  @Override
  public void appendToChain(String sessionId, ChainedEntries next) {
    files.appendToChain(
        sessionId,
        (exists, tip) -> {
          if (armed.compareAndSet(true, false)) {
            paused.countDown();
            try {
              resume.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          return next.after(exists, tip);
        });
  }

  @Override
  public void append(String sessionId, List<? extends NewEntry> entries) {
    files.append(sessionId, entries);
  }

  @Override
  public void create(String sessionId, List<? extends NewEntry> entries) {
    files.create(sessionId, entries);
  }

  @Override
  public Transcript load(String sessionId) {
    return files.load(sessionId);
  }

  @Override
  public List<TranscriptInfo> list() {
    return files.list();
  }

  @Override
  public int delete(String sessionId) {
    return files.delete(sessionId);
  }
}
