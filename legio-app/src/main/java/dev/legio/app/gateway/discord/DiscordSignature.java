package dev.legio.app.gateway.discord;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Discord's interaction signature (its "Receiving and Responding" guide, security and
 * authorization): {@code X-Signature-Ed25519} is the hex Ed25519 signature, by the application's
 * key, of {@code X-Signature-Timestamp} followed by the raw body; it is checked with the JDK's
 * Ed25519 against the application's public key from {@code [gateways.discord] public_key}.
 *
 * <p>Rules: a request is accepted only when both headers are present, the signature is valid, and
 * its timestamp (Unix seconds) is within {@link #MAX_AGE} of now either way, so that a captured
 * request cannot be replayed later.
 */
public final class DiscordSignature {
  /** How old (or how far ahead) a request's timestamp may be. */
  public static final Duration MAX_AGE = Duration.ofMinutes(5);

  /** The DER header of an X.509 SubjectPublicKeyInfo for Ed25519 (RFC 8410), before the key. */
  private static final byte[] X509_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

  private final PublicKey key;
  private final Clock clock;

  /**
   * @param publicKeyHex the application's public key, 64 hex digits
   * @throws IllegalArgumentException when it is not an Ed25519 public key
   */
  public DiscordSignature(String publicKeyHex, Clock clock) {
    this.key = publicKey(publicKeyHex);
    this.clock = clock;
  }

  /** The Ed25519 public key of 32 raw bytes given in hex. */
  public static PublicKey publicKey(String hex) {
    byte[] raw = HexFormat.of().parseHex(hex.strip());
    if (raw.length != 32) {
      throw new IllegalArgumentException(
          "an Ed25519 public key is 32 bytes (64 hex digits), not " + raw.length);
    }
    byte[] der = new byte[X509_PREFIX.length + raw.length];
    System.arraycopy(X509_PREFIX, 0, der, 0, X509_PREFIX.length);
    System.arraycopy(raw, 0, der, X509_PREFIX.length, raw.length);
    try {
      return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an Ed25519 public key: " + e.getMessage(), e);
    }
  }

  /** Why the request must be refused, or empty when Discord signed it. */
  public Optional<String> problem(String timestamp, String signatureHex, byte[] body) {
    if (timestamp == null || signatureHex == null) {
      return Optional.of("X-Signature-Ed25519 and X-Signature-Timestamp are required");
    }
    long seconds;
    try {
      seconds = Long.parseLong(timestamp.strip());
    } catch (NumberFormatException e) {
      return Optional.of("X-Signature-Timestamp is not a Unix time in seconds");
    }
    byte[] signature;
    try {
      signature = HexFormat.of().parseHex(signatureHex.strip());
    } catch (IllegalArgumentException e) {
      return Optional.of("X-Signature-Ed25519 is not hex");
    }
    if (!valid(timestamp.strip(), body, signature)) {
      return Optional.of("invalid request signature");
    }
    Duration age = Duration.between(Instant.ofEpochSecond(seconds), clock.instant()).abs();
    if (age.compareTo(MAX_AGE) > 0) {
      return Optional.of("the request's timestamp is more than 5 minutes from now (a replay?)");
    }
    return Optional.empty();
  }

  private boolean valid(String timestamp, byte[] body, byte[] signature) {
    try {
      Signature verifier = Signature.getInstance("Ed25519");
      verifier.initVerify(key);
      verifier.update(timestamp.getBytes(StandardCharsets.UTF_8));
      verifier.update(body);
      return verifier.verify(signature);
    } catch (java.security.SignatureException | java.security.InvalidKeyException e) {
      return false; // a signature, or a configured key, that is not a point of the curve
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Ed25519 is not available in this JVM", e);
    }
  }
}
