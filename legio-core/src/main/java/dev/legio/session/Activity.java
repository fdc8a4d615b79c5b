package dev.legio.session;

import java.util.Set;

/**
 * What an owner is doing, as {@code /status}, {@code legio status} and the legatus's status block
 * show it ({@link #label()}).
 *
 * <p>Rule: this process's own view of the owner's turns wins; when this process sees it idle, it is
 * {@link #WORKING} while another Legio process holds the owner's lease.
 */
public enum Activity {
  /** No turn running (or none this process knows of, and no other process holds the lease). */
  IDLE("idle"),
  /** A turn is running, here or in another process. */
  WORKING("working"),
  /** The owner's last turn failed. */
  ERROR("error");

  private final String label;

  Activity(String label) {
    this.label = label;
  }

  /** The word shown to users and the legatus: {@code idle}, {@code working}, {@code error}. */
  public String label() {
    return label;
  }

  /**
   * The activity of {@code owner}: {@code local} (this process's view; null when this process holds
   * nothing for it), else {@link #WORKING} while {@code leased} (held by any process) names it.
   */
  public static Activity of(Activity local, String owner, Set<String> leased) {
    Activity mine = local == null ? IDLE : local;
    return mine == IDLE && leased.contains(owner) ? WORKING : mine;
  }
}
