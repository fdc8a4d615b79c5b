package dev.legio.app.http;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;

/**
 * The token a request's {@code Authorization} header carries, read as RFC 6750 (2.1) says: {@code
 * Bearer TOKEN}. The API ({@code server.ApiRouter}) and MCP ({@code mcp.McpEndpoint}) read it
 * alike; each turns a {@link Refusal} into its own answer, and says itself where a token is made.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The scheme {@code Bearer} is matched whatever its case ({@code bearer}, {@code BEARER}). At
 *       least one space or tab follows it; the spaces and tabs around the token are dropped.
 *   <li>A header that does not use the scheme (a token alone, {@code Basic ...}, {@code
 *       Bearer_TOKEN}) is {@link Refusal#NOT_BEARER}, and {@code Bearer} with nothing after it is
 *       {@link Refusal#NO_TOKEN}: never "unknown token", which would send its caller looking for a
 *       revoked token when the token is right and only the header is wrong.
 *   <li>No {@code Authorization} header is {@link Refusal#MISSING}; two or more are {@link
 *       Refusal#REPEATED} (which token speaks is not clear), even when they agree.
 *   <li>Whether the token is known is not read here: a {@link Token} is only well formed.
 *   <li>Nothing here repeats the header's value, the token included ({@link Token#toString}).
 * </ul>
 */
public final class BearerHeader {
  private static final String SCHEME = "Bearer";

  private BearerHeader() {}

  /** What a request's {@code Authorization} headers said: a {@link Token} or a {@link Refusal}. */
  public sealed interface Reading permits Token, Refusal {}

  /** A token sent as {@code Bearer TOKEN}; whether it is known is the caller's to check. */
  public record Token(String value) implements Reading {
    @Override
    public String toString() {
      return "Token[…]";
    }
  }

  /** Why no token was read; {@link #advice} says what is wrong and what to send instead. */
  public enum Refusal implements Reading {
    /** No {@code Authorization} header. */
    MISSING("no Authorization header: send Authorization: Bearer TOKEN"),
    /** Two or more {@code Authorization} headers: which token speaks is not clear. */
    REPEATED(
        "more than one Authorization header, so which token speaks is not clear: send one,"
            + " Authorization: Bearer TOKEN"),
    /**
     * A header not of the form {@code Bearer ...}: a token alone, {@code Basic}, another scheme.
     */
    NOT_BEARER(
        "the Authorization header does not start with Bearer (a token alone, Basic or another"
            + " scheme is not read): send Authorization: Bearer TOKEN"),
    /** {@code Bearer} with no token after it. */
    NO_TOKEN(
        "the Authorization header holds no token after Bearer: send Authorization: Bearer TOKEN");

    private final String advice;

    Refusal(String advice) {
      this.advice = advice;
    }

    /** What is wrong with the request's header and what to send instead; names no token. */
    public String advice() {
      return advice;
    }
  }

  /**
   * The reading of a request's headers: their one {@code Authorization} header read by {@link
   * #of(String)}, or why there is none to read. One pass over the headers, nothing allocated but
   * the token.
   */
  public static Reading of(HttpFields headers) {
    String header = null;
    for (int i = 0, n = headers.size(); i < n; i++) {
      HttpField field = headers.getField(i);
      if (field.getHeader() == HttpHeader.AUTHORIZATION) {
        if (header != null) {
          return Refusal.REPEATED;
        }
        header = field.getValue();
      }
    }
    return header == null ? Refusal.MISSING : of(header);
  }

  /** The reading of {@code header}, one {@code Authorization} header's value. */
  public static Reading of(String header) {
    int end = header.length();
    int start = 0;
    while (start < end && isBlank(header.charAt(start))) {
      start++;
    }
    while (end > start && isBlank(header.charAt(end - 1))) {
      end--;
    }
    int afterScheme = start + SCHEME.length();
    boolean bearer =
        header.regionMatches(true, start, SCHEME, 0, SCHEME.length())
            && (afterScheme == end || isBlank(header.charAt(afterScheme)));
    if (!bearer) {
      return Refusal.NOT_BEARER;
    }
    int token = afterScheme;
    while (token < end && isBlank(header.charAt(token))) {
      token++;
    }
    return token == end ? Refusal.NO_TOKEN : new Token(header.substring(token, end));
  }

  /** A space or a tab: what RFC 9110 lets stand between a scheme and its credentials. */
  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }
}
