package dev.legio.config;

/**
 * The {@code [server]} section: the HTTP API {@code legio serve} runs for every front end.
 *
 * @param bind the address to listen on (default loopback only)
 * @param port the TCP port; 0 picks a free one (printed at start)
 * @param maxBodyBytes the largest request body accepted; a bigger one gets 413 (default: three
 *     times {@code [praetorium] max_message_bytes}, the most the longest message takes in JSON when
 *     every character beyond ASCII is escaped as &#92;uXXXX, as many JSON libraries do by default,
 *     plus 64 KiB for the JSON around the text)
 * @param advertiseUrl where the other nodes on the same database reach this node's API (they send
 *     it the turns of sessions whose Claude CLI conversation is on this node); empty: {@code
 *     http://BIND:PORT}, with the node's host name when {@code bind} listens on every address
 * @param enginePriority how far below the API's threads the engine's work runs (on Linux), so that
 *     turns keeping every core busy do not delay the API's reading and answering
 */
public record ServerSettings(
    String bind, int port, long maxBodyBytes, String advertiseUrl, EnginePriority enginePriority) {
  public ServerSettings {
    advertiseUrl = advertiseUrl == null ? "" : advertiseUrl.strip();
    enginePriority = enginePriority == null ? EnginePriority.LOWERED : enginePriority;
  }

  public ServerSettings(String bind, int port, long maxBodyBytes, String advertiseUrl) {
    this(bind, port, maxBodyBytes, advertiseUrl, EnginePriority.LOWERED);
  }

  public ServerSettings(String bind, int port, long maxBodyBytes) {
    this(bind, port, maxBodyBytes, "");
  }

  public static final int DEFAULT_PORT = 8740;
  public static final long HEADROOM_BYTES = 64 * 1024;

  /**
   * How many times its UTF-8 bytes a text may take in JSON: a two-byte character escaped as
   * &#92;uXXXX takes six.
   */
  public static final long JSON_ESCAPING = 3;

  public static ServerSettings defaults(long maxMessageBytes) {
    return new ServerSettings(
        "127.0.0.1", DEFAULT_PORT, JSON_ESCAPING * maxMessageBytes + HEADROOM_BYTES);
  }

  static ServerSettings read(TomlTable t, long maxMessageBytes) {
    ServerSettings d = defaults(maxMessageBytes);
    String bind = t.string("bind", d.bind());
    if (bind.isBlank()) {
      throw t.error("bind", "an address such as \"127.0.0.1\"", "\"\"");
    }
    int port = (int) t.integer("port", d.port(), 0, 65_535);
    // 0 (the template's value): the default, which follows [praetorium] max_message_bytes.
    long maxBody = t.integer("max_body_bytes", 0, 0, 1L << 30);
    if (maxBody != 0 && maxBody < 1_024) {
      throw t.error("max_body_bytes", "0 (automatic) or at least 1024", Long.toString(maxBody));
    }
    String advertise = t.string("advertise_url", "").strip();
    if (!advertise.isEmpty()) {
      java.net.URI uri;
      try {
        uri = java.net.URI.create(advertise);
      } catch (IllegalArgumentException e) {
        throw t.error(
            "advertise_url", "a URL such as \"http://10.0.0.11:8740\"", "\"" + advertise + "\"");
      }
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null) {
        throw t.error(
            "advertise_url", "a URL such as \"http://10.0.0.11:8740\"", "\"" + advertise + "\"");
      }
    }
    EnginePriority enginePriority =
        EnginePriority.of(
                t.choice(
                    "engine_priority", EnginePriority.LOWERED.label(), EnginePriority.labels()))
            .orElseThrow();
    return new ServerSettings(
        bind, port, maxBody == 0 ? d.maxBodyBytes() : maxBody, advertise, enginePriority);
  }
}
