package dev.legio.app.gateway.slack;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Slack's request signature (its "Verifying requests from Slack" guide): {@code X-Slack-Signature}
 * is {@code v0=} and the hex HMAC-SHA256, keyed with the app's signing secret, of {@code
 * v0:TIMESTAMP:BODY}, where TIMESTAMP is {@code X-Slack-Request-Timestamp} (Unix seconds) and BODY
 * the raw request body.
 *
 * <p>Rules: a request is accepted only when both headers are present, its timestamp is within
 * {@link #MAX_AGE} of now (either way: an old request may be a replay) and the signature matches,
 * compared in constant time. Written here (a JDK {@link Mac}, a few lines) rather than taken from
 * the SDK's {@code SlackSignature.Verifier}, which lives in another artifact ({@code
 * slack-app-backend}) and reads the system clock, where this takes a {@link Clock} so tests can
 * move time.
 */
public final class SlackSignature {
  /** How old (or how far ahead) a request's timestamp may be. */
  public static final Duration MAX_AGE = Duration.ofMinutes(5);

  private final byte[] secret;
  private final Clock clock;

  public SlackSignature(String signingSecret, Clock clock) {
    this.secret = signingSecret.getBytes(StandardCharsets.UTF_8);
    this.clock = clock;
  }

  /** Why the request must be refused, or empty when it is Slack's. Never names the secret. */
  public Optional<String> problem(String timestamp, String signature, byte[] body) {
    if (timestamp == null || signature == null) {
      return Optional.of("X-Slack-Request-Timestamp and X-Slack-Signature are required");
    }
    long seconds;
    try {
      seconds = Long.parseLong(timestamp.strip());
    } catch (NumberFormatException e) {
      return Optional.of("X-Slack-Request-Timestamp is not a Unix time in seconds");
    }
    Instant at = Instant.ofEpochSecond(seconds);
    Duration age = Duration.between(at, clock.instant()).abs();
    if (age.compareTo(MAX_AGE) > 0) {
      return Optional.of("the request's timestamp is more than 5 minutes from now (a replay?)");
    }
    byte[] expected = sign(timestamp.strip(), body).getBytes(StandardCharsets.US_ASCII);
    byte[] given = signature.strip().getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, given)
        ? Optional.empty()
        : Optional.of("the signature does not match the signing secret");
  }

  /** The signature Slack would send for {@code body} at {@code timestamp}: {@code v0=HEX}. */
  public String sign(String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      mac.update(("v0:" + timestamp + ":").getBytes(StandardCharsets.UTF_8));
      return "v0=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }
}
