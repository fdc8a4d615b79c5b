package dev.legio.app.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An {@code Accept} header weighed as RFC 9110 (12.5.1) says: how much it takes a media type. The
 * API ({@code server.AcceptNegotiation}) and MCP ({@code mcp.McpEndpoint}) read it alike.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A type takes the weight ({@code q}, 1 when not given) of the most specific range that
 *       matches it: {@code text/event-stream} before {@code text/*} before {@code *}{@code /*}.
 *       {@code q=0} means "not acceptable", also for a type a wider range would take ({@code
 *       *}{@code /*, text/event-stream;q=0} does not take the stream). A type no range matches is
 *       not taken.
 *   <li>Parameters other than {@code q} are ignored ({@code application/json;charset=utf-8} is
 *       JSON); a {@code q} that is not a number from 0 to 1 counts as 1, and a range that cannot be
 *       read is skipped (an empty one, a bare {@code ;}): a client's clumsy header never refuses
 *       what it would take, and never fails the request.
 *   <li>Types and ranges are compared without regard to case. What an absent header means is the
 *       reader's to say (the API: every type; MCP, whose clients must send one: none).
 * </ul>
 */
public final class AcceptHeader {
  /** One range of the header: {@code type/subtype} (either may be {@code *}) and its weight. */
  private record Range(String type, String subtype, double q) {
    /** How specifically this range matches {@code mediaType}: -1 not at all, 0 to 2. */
    int matches(String t, String s) {
      if (type.equals("*")) {
        return subtype.equals("*") ? 0 : -1;
      }
      if (!type.equals(t)) {
        return -1;
      }
      if (subtype.equals("*")) {
        return 1;
      }
      return subtype.equals(s) ? 2 : -1;
    }
  }

  /**
   * How a header takes one type.
   *
   * @param q its weight, 0 when it is not taken
   * @param specificity how specifically the range that gave the weight names it: 2 exactly, 1
   *     {@code type/*}, 0 {@code *}{@code /*}, -1 no range matched
   * @param position where that range is in the header (the client's order), {@link
   *     Integer#MAX_VALUE} when none matched
   */
  public record Weight(double q, int specificity, int position) {
    /** Whether the header takes the type at all. */
    public boolean taken() {
      return q > 0;
    }
  }

  private final List<Range> ranges;

  private AcceptHeader(List<Range> ranges) {
    this.ranges = ranges;
  }

  /** The header's ranges; {@code accept} must not be null. */
  public static AcceptHeader of(String accept) {
    List<Range> out = new ArrayList<>();
    for (String element : accept.split(",")) {
      // -1: a bare ";" gives ["", ""], not an empty array (a range that cannot be read, skipped)
      String[] parts = element.split(";", -1);
      String range = parts[0].strip().toLowerCase(Locale.ROOT);
      int slash = range.indexOf('/');
      if (slash <= 0 || slash == range.length() - 1) {
        continue; // not a media range: skipped
      }
      double q = 1;
      for (int i = 1; i < parts.length; i++) {
        String[] parameter = parts[i].split("=", 2);
        if (parameter.length == 2 && parameter[0].strip().equalsIgnoreCase("q")) {
          q = weight(parameter[1].strip());
          break; // what follows q is accept-ext, not the type's
        }
      }
      out.add(new Range(range.substring(0, slash), range.substring(slash + 1), q));
    }
    return new AcceptHeader(out);
  }

  /** How the header takes {@code mediaType} ({@code type/subtype}). */
  public Weight weigh(String mediaType) {
    String lower = mediaType.toLowerCase(Locale.ROOT);
    int slash = lower.indexOf('/');
    String t = lower.substring(0, slash);
    String s = lower.substring(slash + 1);
    int specificity = -1;
    double q = 0;
    int position = Integer.MAX_VALUE;
    for (int i = 0; i < ranges.size(); i++) {
      int m = ranges.get(i).matches(t, s);
      if (m > specificity) {
        specificity = m;
        q = ranges.get(i).q();
        position = i;
      }
    }
    return new Weight(q, specificity, position);
  }

  /** Whether the header takes {@code mediaType} (a weight over 0). */
  public boolean takes(String mediaType) {
    return weigh(mediaType).taken();
  }

  /** A {@code q} value: 0 to 1; 1 when it is not one. */
  private static double weight(String text) {
    if (!text.matches("[01](\\.[0-9]{0,3})?")) {
      return 1;
    }
    double q = Double.parseDouble(text);
    return q <= 1 ? q : 1;
  }
}
