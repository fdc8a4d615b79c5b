package dev.legio.app.server;

import dev.legio.transcript.FileTranscriptStore;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.OptionalLong;

/**
 * Where a page of {@code GET /api/v1/sessions} (or of {@code legio sessions list}) ended: the last
 * session's start and id, the key the sessions are ordered by ({@link SessionPages}). The next page
 * holds the sessions after it in that order.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>On the wire a cursor is opaque: URL-safe base64 without padding, so that it goes into a
 *       query as it is. Clients pass back the {@code next_cursor} they were given, unchanged.
 *   <li>A value that is not such a cursor (not base64, another layout, a time out of range, an id
 *       that cannot be a session id) is 400 naming {@code cursor} and saying what to send (for
 *       {@code legio sessions list --cursor}: a usage error saying the same).
 *   <li>A cursor stays valid while sessions come and go: it names a place in the order, not a
 *       session, so the session it came from may be gone.
 * </ul>
 *
 * @param started the last session's start, as {@link SessionPages} orders by
 * @param sessionId its id, which orders sessions that started at the same instant
 */
public record SessionsCursor(Instant started, String sessionId) {
  /** Newest first: by start, then by session id, both descending. */
  static final Comparator<SessionsCursor> NEWEST_FIRST =
      Comparator.comparing(SessionsCursor::started)
          .thenComparing(SessionsCursor::sessionId)
          .reversed();

  /** The cursor as the API gives it out. */
  public String encode() {
    String plain = started.getEpochSecond() + "." + started.getNano() + "." + sessionId;
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(plain.getBytes(StandardCharsets.UTF_8));
  }

  /** The cursor {@code text} names; 400 naming the parameter when it is not one this API gave. */
  static SessionsCursor decode(String text) {
    SessionsCursor cursor = parse(text);
    if (cursor == null) {
      throw ApiException.badRequest(
          "query parameter 'cursor' is not a cursor GET /api/v1/sessions gave: send the"
              + " next_cursor of the page before unchanged, or leave cursor out for the first"
              + " page");
    }
    return cursor;
  }

  /** The cursor {@code text} names, or null when it is not one {@link #encode} gave. */
  public static SessionsCursor parse(String text) {
    try {
      String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
      String[] fields = plain.split("\\.", 3);
      if (fields.length == 3) {
        OptionalLong seconds = WholeNumber.parse(fields[0]);
        OptionalLong nanos = WholeNumber.parse(fields[1]);
        if (seconds.isPresent()
            && nanos.isPresent()
            && nanos.getAsLong() >= 0
            && nanos.getAsLong() < 1_000_000_000L) {
          return new SessionsCursor(
              Instant.ofEpochSecond(seconds.getAsLong(), nanos.getAsLong()),
              FileTranscriptStore.checkId(fields[2]));
        }
      }
    } catch (IllegalArgumentException | DateTimeException e) {
      // not base64, or an id that is not a session id: not a cursor
    }
    return null;
  }
}
