package dev.legio.backend;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * A back-end that passes everything to another one, with one place to step in: {@link #open} (a
 * session is opened) and {@link #send} (a turn is sent in one of its sessions). For benchmarks and
 * tests that time, hold, script or record turns around a real back-end.
 *
 * <p>Rule: whatever a subclass does not override behaves exactly as the wrapped back-end, including
 * one-off questions ({@link #complete}) and closing.
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
        return ForwardingModelBackend.this.send(session, userMessage, events);
      }

      @Override
      public void close() {
        session.close();
      }
    };
  }

  /** Sends one turn in {@code session} (a session of the wrapped back-end). */
  protected TurnResult send(
      BackendSession session, String userMessage, Consumer<BackendEvent> events) {
    return session.send(userMessage, events);
  }

  @Override
  public void close() {
    inner.close();
  }
}
