package dev.legio.session;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.NameBasedGenerator;
import dev.legio.errors.Quoted;
import java.util.Objects;
import java.util.UUID;

/**
 * A caller's key for one request, which makes sending the request again safe: after a time-out, a
 * lost answer, or a crash of the process that took it (an {@code Idempotency-Key} of the HTTP API,
 * a Telegram message taken again after a restart).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A key is 1-{@value #MAX_LENGTH} printable ASCII characters (no spaces), unique among the
 *       requests of its {@code scope} (who sends: an API token, a gateway).
 *   <li>A request with a key is logged under an id derived from its scope, where it goes (a
 *       channel, or caesar's agents) and the key ({@link #messageId}: a name-based UUID, version
 *       5), so that the same key names the same message on every node, and the log's primary key
 *       lets only one of two racing sends log it.
 *   <li>A request sent again is not logged again. Each agent it went to whose answer to it is in
 *       the log answers with that, and runs no turn; one whose answer is not (the process running
 *       the turn was killed, or the turn failed) runs the turn for the request logged before. While
 *       the first send's turn still runs, the second waits its turn in the agent's queue, then
 *       finds the answer.
 *   <li>A key sent again with another text, or to other agents, is refused ({@link
 *       RequestKeyReusedException}) and nothing is logged.
 * </ul>
 *
 * @param scope who sends, e.g. {@code token:platform-a} or {@code gateway:telegram}
 * @param key the caller's key
 */
public record RequestKey(String scope, String key) {
  public static final int MAX_LENGTH = 200;

  /** The namespace of Legio's request ids (a fixed random UUID). */
  private static final NameBasedGenerator IDS =
      Generators.nameBasedGenerator(UUID.fromString("7b0c1f0e-5a55-4f0e-9d2c-6c1e9b4f7a21"));

  public RequestKey {
    Objects.requireNonNull(scope, "scope");
    if (key == null || key.isEmpty() || key.length() > MAX_LENGTH || !printable(key)) {
      throw new IllegalArgumentException(
          "the request key '"
              + Quoted.of(key)
              + "' is not one: use 1-"
              + MAX_LENGTH
              + " printable ASCII characters without spaces, such as a UUID");
    }
  }

  private static boolean printable(String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        return false;
      }
    }
    return true;
  }

  /** The id of the message this key's request to {@code destination} is logged under. */
  public UUID messageId(String destination) {
    return IDS.generate(scope + "\n" + destination + "\n" + key);
  }
}
