package dev.legio.app.http;

import java.util.Optional;

/**
 * A request body sent compressed: Legio's server decodes no {@code Content-Encoding}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A body whose {@code Content-Encoding} (each of the header's values, each perhaps a
 *       comma-separated list) names anything but {@code identity} (gzip, deflate, br...) is refused
 *       with {@link #STATUS} 415 before any of it is read; the answer names the coding, says to
 *       send the body uncompressed, and carries {@code Accept-Encoding: identity} (RFC 7694).
 *   <li>Every route that reads a body applies it: the API's JSON bodies, MCP's POST and the
 *       platforms' webhooks. A compressed body is never answered with a parse error about its
 *       bytes, nor with a signature that fails on them.
 * </ul>
 */
public final class ContentEncodingRefusal {
  /** The status of the refusal: 415 Unsupported Media Type. */
  public static final int STATUS = 415;

  /** The header the refusal's answer carries, and its value. */
  public static final String ACCEPT_ENCODING = "Accept-Encoding";

  public static final String IDENTITY = "identity";

  private ContentEncodingRefusal() {}

  /**
   * Why a body sent with the {@code Content-Encoding} values {@code values} is refused; empty when
   * it is sent as it is (no header, or only {@code identity}).
   */
  public static Optional<String> of(Iterable<String> values) {
    for (String value : values) {
      for (String coding : value.split(",")) {
        String name = coding.strip();
        if (!name.isEmpty() && !name.equalsIgnoreCase(IDENTITY)) {
          return Optional.of(
              "the body is sent with Content-Encoding: "
                  + HeaderText.quoted(name)
                  + ", which this server does not decode; send the body uncompressed (without"
                  + " Content-Encoding)");
        }
      }
    }
    return Optional.empty();
  }
}
