package dev.legio.app.server;

/**
 * The token an {@code Authorization} header carries, read as RFC 6750 says: {@code Bearer TOKEN}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The scheme {@code Bearer} is matched whatever its case ({@code bearer}, {@code BEARER});
 *       the spaces or tabs after it and around the token are dropped.
 *   <li>A header that does not use the scheme (a token alone, {@code Basic ...}, {@code Token ...})
 *       or holds no token after it is a 401 that says so and how to send it: never "unknown token",
 *       which would send its caller looking for a revoked token when the token is right and only
 *       the header is wrong.
 *   <li>No error repeats the header's value: it may be a token.
 * </ul>
 */
final class BearerHeader {
  private static final String SCHEME = "Bearer";

  private BearerHeader() {}

  /** The token of {@code header}, the value of an {@code Authorization} header; 401 when none. */
  static String token(String header) {
    String value = header.strip();
    boolean bearer =
        value.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
            && (value.length() == SCHEME.length()
                || Character.isWhitespace(value.charAt(SCHEME.length())));
    if (!bearer) {
      throw new ApiException(
          401,
          "the Authorization header does not start with Bearer (a token alone, Basic or another"
              + " scheme is not read): send Authorization: Bearer TOKEN");
    }
    String token = value.substring(SCHEME.length()).strip();
    if (token.isEmpty()) {
      throw new ApiException(
          401,
          "the Authorization header holds no token after Bearer: send Authorization: Bearer"
              + " TOKEN (make a token with `legio token create NAME --role operator`)");
    }
    return token;
  }
}
