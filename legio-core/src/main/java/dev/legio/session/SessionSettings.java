package dev.legio.session;

import java.time.Duration;
import java.time.LocalTime;
import java.util.Map;
import java.util.Objects;

/**
 * The rules sessions follow, from {@code legio.toml} (see the template for each key and default).
 *
 * @param historyWindow how many recent messages a fresh session receives; an agent's front matter
 *     may override it
 * @param maxInputTokens cumulative input tokens after which a session is rebuilt (checked before
 *     each dispatch); an agent's front matter may override it
 * @param idleTimeout a session unused for longer is closed; the next request starts a fresh one
 * @param reaperInterval how often idle sessions are looked for
 * @param leaseDuration how long a session's lock is held at most (a holder that died releases it
 *     when the lease runs out)
 * @param lockWait how long a request waits for a session another request (or process) is using,
 *     before it gets a "busy" answer
 * @param ttlByBackend how long a session record is kept after its last activity, per back-end kind;
 *     the key {@code default} covers the others
 * @param cleanupAt the time of day (UTC) at which expired session records are deleted
 * @param shutdownGrace how long shutdown waits for dispatches in flight before interrupting them
 */
public record SessionSettings(
    int historyWindow,
    long maxInputTokens,
    Duration idleTimeout,
    Duration reaperInterval,
    Duration leaseDuration,
    Duration lockWait,
    Map<String, Duration> ttlByBackend,
    LocalTime cleanupAt,
    Duration shutdownGrace,
    Channels channels) {

  public static final int DEFAULT_HISTORY_WINDOW = 50;
  public static final long DEFAULT_MAX_INPUT_TOKENS = 150_000;

  /**
   * Sessions of external channels ({@code telegram:123}, {@code viewer:main}).
   *
   * @param maxSessions live channel sessions at most; the least recently active is closed first
   * @param idleTimeout a channel session unused for longer is closed by the cleanup
   * @param cleanupInterval how often idle channel sessions are looked for
   * @param contextThresholdTokens cumulative input tokens after which the channel's session is
   *     reset on its next message
   * @param roleBySource the role each source gets ({@code operator}: the legatus's tools; {@code
   *     chat}: restricted); sources not listed get {@code chat}
   */
  public record Channels(
      int maxSessions,
      Duration idleTimeout,
      Duration cleanupInterval,
      long contextThresholdTokens,
      Map<String, String> roleBySource) {

    public static Channels defaults() {
      return new Channels(
          100,
          Duration.ofMinutes(30),
          Duration.ofMinutes(5),
          160_000,
          Map.of("viewer", "operator", "telegram", "chat", "discord", "chat", "slack", "chat"));
    }

    public String roleFor(String source) {
      return roleBySource.getOrDefault(source, "chat");
    }
  }

  public SessionSettings {
    Objects.requireNonNull(idleTimeout);
    Objects.requireNonNull(ttlByBackend);
    Objects.requireNonNull(channels);
  }

  public static SessionSettings defaults() {
    return new SessionSettings(
        DEFAULT_HISTORY_WINDOW,
        DEFAULT_MAX_INPUT_TOKENS,
        Duration.ofMinutes(30),
        Duration.ofSeconds(60),
        Duration.ofMinutes(15),
        Duration.ofSeconds(30),
        defaultTtls(),
        LocalTime.of(2, 0),
        Duration.ofSeconds(30),
        Channels.defaults());
  }

  public static Map<String, Duration> defaultTtls() {
    return Map.of(
        "claude-cli",
        Duration.ofDays(30),
        "ollama",
        Duration.ofDays(7),
        "default",
        Duration.ofDays(30));
  }

  /** The time to live of a session record on the given back-end. */
  public Duration ttlFor(String backend) {
    Duration ttl = ttlByBackend.get(backend);
    return ttl != null ? ttl : ttlByBackend.getOrDefault("default", Duration.ofDays(30));
  }

  /**
   * The longest time to live of any back-end's session records: a stored conversation inactive for
   * longer than this can belong to no session record that is still kept.
   */
  public Duration longestTtl() {
    Duration longest = ttlFor("default");
    for (Duration ttl : ttlByBackend.values()) {
      if (ttl.compareTo(longest) > 0) {
        longest = ttl;
      }
    }
    return longest;
  }

  public SessionSettings withLockWait(Duration wait) {
    return new SessionSettings(
        historyWindow,
        maxInputTokens,
        idleTimeout,
        reaperInterval,
        leaseDuration,
        wait,
        ttlByBackend,
        cleanupAt,
        shutdownGrace,
        channels);
  }

  public SessionSettings withChannels(Channels newChannels) {
    return new SessionSettings(
        historyWindow,
        maxInputTokens,
        idleTimeout,
        reaperInterval,
        leaseDuration,
        lockWait,
        ttlByBackend,
        cleanupAt,
        shutdownGrace,
        newChannels);
  }
}
