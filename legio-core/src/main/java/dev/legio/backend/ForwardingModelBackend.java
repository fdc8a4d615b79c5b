package dev.legio.backend;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * A back-end that passes everything to another one, with one place to step in: {@link #open} (a
 * session is opened) and {@link #send} (a turn is sent in one of its sessions). For benchmarks and
 * tests that time, hold, script or record turns around a real back-end.
 *
 * <p>Rules: whatever a subclass does not override behaves exactly as the wrapped back-end,
 * including one-off questions ({@link #complete}) and closing; a turn reaches the wrapped session
 * with the {@link TurnStart} it was sent with (a turn sent without one starts when it is sent), so
 * its time-out counts as if nothing stood between.
 */
public class ForwardingModelBackend implements ModelBackend {
  private final ModelBackend inner;

  public ForwardingModelBackend(ModelBackend inner) {
    this.inner = Objects.requireNonNull(inner, "inner");
  }

  /** The wrapped back-end. */
  protected final ModelBackend inner() {
    return inner;
  }

  @Override
  public String kind() {
    return inner.kind();
  }

  @Override
  public String displayName() {
    return inner.displayName();
  }

  @Override
  public boolean canResume() {
    return inner.canResume();
  }

  @Override
  public boolean canComplete() {
    return inner.canComplete();
  }

  @Override
  public String complete(String systemPrompt, String prompt, String model) {
    return inner.complete(systemPrompt, prompt, model);
  }

  /** Opens the wrapped back-end's session; each of its turns goes through {@link #send}. */
  @Override
  public BackendSession open(SessionSpec spec) {
    BackendSession session = inner.open(spec);
    return new BackendSession() {
      @Override
      public String backendSessionId() {
        return session.backendSessionId();
      }

      @Override
      public boolean resumed() {
        return session.resumed();
      }

      @Override
      public TurnResult send(String userMessage, Consumer<BackendEvent> events) {
        return send(userMessage, events, TurnStart.now());
      }

      @Override
      public TurnResult send(String userMessage, Consumer<BackendEvent> events, TurnStart start) {
        return ForwardingModelBackend.this.send(session, userMessage, events, start);
      }

      @Override
      public void close() {
        session.close();
      }
    };
  }

  /**
   * Sends one turn that started at {@code start} in {@code session} (a session of the wrapped
   * back-end). A subclass passes {@code start} on ({@link BackendSession#send(String, Consumer,
   * TurnStart)}), so the wrapped back-end counts the turn's time-out from when it was first sent.
   */
  protected TurnResult send(
      BackendSession session, String userMessage, Consumer<BackendEvent> events, TurnStart start) {
    return session.send(userMessage, events, start);
  }

  @Override
  public void close() {
    inner.close();
  }
}
