package dev.legio.config;

import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The rules sessions follow: the top-level {@code session_idle_timeout_minutes} and the {@code
 * [sessions]} and {@code [channels]} sections of {@code legio.toml} (see the template for each
 * key's documentation). {@link #defaults()} holds every default; {@link #read} reads and checks
 * each key.
 *
 * @param historyWindow how many recent messages a fresh session receives; an agent's front matter
 *     may override it
 * @param maxInputTokens cumulative input tokens after which a session is rebuilt (checked before
 *     each dispatch); an agent's front matter may override it
 * @param idleTimeout a session unused for longer is closed; the next request starts a fresh one
 * @param reaperInterval how often idle sessions are looked for
 * @param leaseDuration how long a session's lease lasts unless its holder renews it ({@code
 *     [sessions] lease_ttl_seconds}): the holder renews it every third of that while a turn runs,
 *     so a node that died (or paused) frees its sessions within it. The retired {@code
 *     lock_lease_minutes} is accepted and ignored with a warning ({@link
 *     #LOCK_LEASE_MINUTES_RETIRED}).
 * @param lockWait how long a request waits for a session another request (or process) is using,
 *     before it gets a "busy" answer
 * @param ttlByBackend how long a session record is kept after its last activity, per back-end kind;
 *     the key {@code default} covers the others
 * @param cleanupAt the time of day (UTC) at which expired session records are deleted
 * @param shutdownGrace how long shutdown waits for dispatches in flight before interrupting them
 * @param condenseAfterTokens a Claude Code CLI session whose conversation is larger than this many
 *     tokens is condensed before its next turn (a new CLI session started from a brief); 0: never
 * @param resumeAfterIdle true: an agent's session idle past {@code idleTimeout} only has its live
 *     back-end process closed, and its next request resumes the conversation (until its time to
 *     live); false (the default): the idle session is closed and the next request starts a new one.
 *     Task sessions always resume until their time to live.
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
    Channels channels,
    long condenseAfterTokens,
    boolean resumeAfterIdle) {

  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(SessionSettings.class);

  public static final int DEFAULT_HISTORY_WINDOW = 50;

  /** The default of {@code [sessions] lease_ttl_seconds}. */
  public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(30);

  /** What a file that still sets {@code [sessions] lock_lease_minutes} is told. */
  public static final String LOCK_LEASE_MINUTES_RETIRED =
      "[sessions] lock_lease_minutes is deprecated and ignored: a session lease now lasts"
          + " lease_ttl_seconds (default 30) and is renewed while its turn runs, so a node that"
          + " dies frees its sessions within that time. Remove lock_lease_minutes from legio.toml"
          + " (set lease_ttl_seconds instead if 30 s does not suit).";

  public static final long DEFAULT_CONDENSE_AFTER_TOKENS = 50_000;
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

    /**
     * Reads {@code [channels]} over {@link #defaults()}; a source listed in {@code
     * [channels.roles]} must be a plain lowercase name and get {@code "operator"} or {@code
     * "chat"}.
     */
    static Channels read(TomlTable t) {
      Channels d = defaults();
      int maxSessions = (int) t.integer("max_sessions", d.maxSessions(), 1, 100_000);
      long idle = t.integer("idle_timeout_minutes", d.idleTimeout().toMinutes(), 1, 10_080);
      long cleanup =
          t.integer("cleanup_interval_minutes", d.cleanupInterval().toMinutes(), 1, 1_440);
      long threshold =
          t.integer("context_threshold_tokens", d.contextThresholdTokens(), 1_000, 100_000_000);
      TomlTable rolesTable = t.table("roles");
      Map<String, String> roles = new HashMap<>(d.roleBySource());
      for (String source : rolesTable.keys()) {
        if (!source.matches("[a-z][a-z0-9_-]{0,31}")) {
          throw rolesTable.problem(
              "'" + source + "' is not a valid source name (lowercase letters, digits, - and _)");
        }
        roles.put(source, rolesTable.choice(source, "chat", ROLES));
      }
      return new Channels(
          maxSessions,
          Duration.ofMinutes(idle),
          Duration.ofMinutes(cleanup),
          threshold,
          Map.copyOf(roles));
    }

    private static final List<String> ROLES = List.of("operator", "chat");
  }

  public SessionSettings {
    Objects.requireNonNull(idleTimeout);
    if (condenseAfterTokens < 0) {
      throw new IllegalArgumentException("condenseAfterTokens cannot be negative");
    }
    Objects.requireNonNull(ttlByBackend);
    Objects.requireNonNull(channels);
  }

  public static SessionSettings defaults() {
    return new SessionSettings(
        DEFAULT_HISTORY_WINDOW,
        DEFAULT_MAX_INPUT_TOKENS,
        Duration.ofMinutes(30),
        Duration.ofSeconds(60),
        DEFAULT_LEASE_TTL,
        Duration.ofSeconds(30),
        defaultTtls(),
        LocalTime.of(2, 0),
        Duration.ofSeconds(30),
        Channels.defaults(),
        DEFAULT_CONDENSE_AFTER_TOKENS,
        false);
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

  /**
   * Reads the session keys of the document {@code root} over {@link #defaults()}: the top-level
   * {@code session_idle_timeout_minutes}, {@code [sessions]} (with {@code [sessions.ttl_days]}, one
   * key per back-end kind and {@code default}) and {@code [channels]}.
   */
  static SessionSettings read(TomlTable root, int historyWindow) {
    SessionSettings d = defaults();
    long idleMinutes =
        root.integer("session_idle_timeout_minutes", d.idleTimeout().toMinutes(), 1, 10_080);
    TomlTable s = root.table("sessions");
    long maxInput = s.integer("max_input_tokens", d.maxInputTokens(), 1_000, 100_000_000);
    long reaper = s.integer("reaper_interval_seconds", d.reaperInterval().toSeconds(), 1, 86_400);
    long lockWait = s.integer("lock_wait_seconds", d.lockWait().toSeconds(), 0, 3_600);
    long lease = s.integer("lease_ttl_seconds", d.leaseDuration().toSeconds(), 3, 3_600);
    if (s.retired("lock_lease_minutes")) {
      log.warn("{}: {}", s.file(), LOCK_LEASE_MINUTES_RETIRED);
    }
    String at = s.string("cleanup_at", d.cleanupAt().toString());
    LocalTime cleanupAt;
    try {
      cleanupAt = LocalTime.parse(at);
    } catch (DateTimeParseException e) {
      throw s.error("cleanup_at", "a time of day in UTC as \"HH:MM\"", "\"" + at + "\"");
    }
    long grace = s.integer("shutdown_grace_seconds", d.shutdownGrace().toSeconds(), 0, 3_600);
    long condense = s.integer("condense_after_tokens", d.condenseAfterTokens(), 0, 100_000_000);
    boolean resumeAfterIdle = s.bool("resume_after_idle", d.resumeAfterIdle());
    TomlTable ttlTable = s.table("ttl_days");
    Map<String, Duration> ttls = new HashMap<>(d.ttlByBackend());
    for (String key : ttlKeys()) {
      if (ttlTable.has(key)) {
        ttls.put(key, Duration.ofDays(ttlTable.integer(key, 30, 1, 3_650)));
      }
    }
    return new SessionSettings(
        historyWindow,
        maxInput,
        Duration.ofMinutes(idleMinutes),
        Duration.ofSeconds(reaper),
        Duration.ofSeconds(lease),
        Duration.ofSeconds(lockWait),
        Map.copyOf(ttls),
        cleanupAt,
        Duration.ofSeconds(grace),
        Channels.read(root.table("channels")),
        condense,
        resumeAfterIdle);
  }

  /** The keys of {@code [sessions.ttl_days]}: {@code default} and each back-end kind. */
  private static List<String> ttlKeys() {
    return Stream.concat(
            Stream.of("default"),
            LegioConfig.Backend.KINDS.stream().filter(k -> !k.equals(LegioConfig.Backend.AUTO)))
        .toList();
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
        channels,
        condenseAfterTokens,
        resumeAfterIdle);
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
        newChannels,
        condenseAfterTokens,
        resumeAfterIdle);
  }

  /** These settings with {@code condense_after_tokens} = {@code tokens} (0: off). */
  public SessionSettings withCondenseAfterTokens(long tokens) {
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
        channels,
        tokens,
        resumeAfterIdle);
  }

  /** These settings with {@code resume_after_idle} set to {@code resume}. */
  public SessionSettings withResumeAfterIdle(boolean resume) {
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
        channels,
        condenseAfterTokens,
        resume);
  }
}
