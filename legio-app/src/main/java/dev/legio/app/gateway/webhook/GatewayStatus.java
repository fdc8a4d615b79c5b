package dev.legio.app.gateway.webhook;

import dev.legio.app.gateway.GatewayHealth;
import dev.legio.secrets.SecretRedactor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where one gateway stands, kept as it changes: its state and why, and the messages taken in and
 * sent out. Thread-safe. Rule: every detail passes {@link SecretRedactor} before it is kept, so a
 * platform's error that echoes a token cannot reach the status.
 */
public final class GatewayStatus {
  private final String name;
  private final AtomicLong in = new AtomicLong();
  private final AtomicLong out = new AtomicLong();
  private volatile GatewayHealth.State state = GatewayHealth.State.WAITING;
  private volatile String detail = "starting";

  public GatewayStatus(String name) {
    this.name = name;
  }

  public void connected() {
    set(GatewayHealth.State.CONNECTED, "");
  }

  /** The platform is not reached yet (down, or not answering); the gateway keeps trying. */
  public void waiting(String why) {
    set(GatewayHealth.State.WAITING, why);
  }

  /** The platform refuses us, or the gateway is not set up; a user should look. */
  public void failing(String why) {
    set(GatewayHealth.State.FAILING, why);
  }

  public void stopped() {
    set(GatewayHealth.State.STOPPED, "");
  }

  /** One platform message taken in. */
  public void received() {
    in.incrementAndGet();
  }

  /** One message sent to the platform. */
  public void sent() {
    out.incrementAndGet();
  }

  public GatewayHealth.State state() {
    return state;
  }

  public GatewayHealth health() {
    synchronized (this) {
      return new GatewayHealth(name, state, detail, in.get(), out.get());
    }
  }

  private synchronized void set(GatewayHealth.State state, String why) {
    this.state = state;
    this.detail = SecretRedactor.redact(why == null ? "" : why);
  }
}
