package dev.legio.app.server;

import java.util.List;
import java.util.Locale;

/**
 * Which of the media types an endpoint answers with the request's {@code Accept} header takes (RFC
 * 9110 12.5.1).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>No {@code Accept} (or an empty one) takes every type: the endpoint's first, its default.
 *   <li>A type takes the weight ({@code q}, 1 when not given) of the most specific range that
 *       matches it: {@code text/event-stream} before {@code text/*} before {@code *}{@code /*}.
 *       {@code q=0} means "not acceptable", also for a type a wider range would take ({@code
 *       *}{@code /*, text/event-stream;q=0} does not stream). A type no range matches is not
 *       acceptable.
 *   <li>The type of the highest weight wins; of equal weights, the one matched more specifically
 *       (named exactly rather than through a wildcard), then the one whose range the client listed
 *       first, then the endpoint's order. So {@code Accept: text/event-stream} streams (also with
 *       {@code , application/json} after it), while curl's {@code *}{@code /*} and no {@code
 *       Accept} get the default (JSON).
 *   <li>Parameters other than {@code q} are ignored ({@code application/json;charset=utf-8} is
 *       JSON); a {@code q} that is not a number from 0 to 1 counts as 1, as a range that cannot be
 *       read is skipped: a client's clumsy header never refuses what it would take.
 *   <li>When the header takes none of the types: 406 naming them, so the client knows what to ask
 *       for.
 * </ul>
 */
final class AcceptNegotiation {
  private AcceptNegotiation() {}

  /** One range of the header: {@code type/subtype} (either may be {@code *}) and its weight. */
  private record Range(String type, String subtype, double q) {
    /** How specifically this range matches {@code mediaType}: -1 not at all, 0 to 2. */
    int matches(String mediaType) {
      int slash = mediaType.indexOf('/');
      String t = mediaType.substring(0, slash);
      String s = mediaType.substring(slash + 1);
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
   * Of {@code offered} (lower-case {@code type/subtype}, the default first), the one {@code accept}
   * takes; 406 naming them when it takes none ({@code answering}: what the error says answers, such
   * as {@code POST /api/v1/messages}).
   */
  static String choose(String accept, List<String> offered, String answering) {
    if (accept == null || accept.isBlank()) {
      return offered.get(0);
    }
    List<Range> ranges = ranges(accept);
    String best = null;
    double bestQ = 0;
    int bestSpecificity = -1;
    int bestPosition = Integer.MAX_VALUE;
    for (String type : offered) {
      int specificity = -1;
      double q = 0;
      int position = Integer.MAX_VALUE;
      for (int i = 0; i < ranges.size(); i++) {
        int m = ranges.get(i).matches(type);
        if (m > specificity) {
          specificity = m;
          q = ranges.get(i).q();
          position = i;
        }
      }
      boolean better =
          q > bestQ
              || (q == bestQ
                  && q > 0
                  && (specificity > bestSpecificity
                      || (specificity == bestSpecificity && position < bestPosition)));
      if (better) {
        best = type;
        bestQ = q;
        bestSpecificity = specificity;
        bestPosition = position;
      }
    }
    if (best == null) {
      throw new ApiException(
          406,
          answering
              + " answers "
              + String.join(" or ", offered)
              + ", which the Accept header ('"
              + HeaderText.quoted(accept)
              + "') does not take; send Accept: "
              + String.join(" or ", offered)
              + " (or */*, or no Accept)");
    }
    return best;
  }

  private static List<Range> ranges(String accept) {
    List<Range> out = new java.util.ArrayList<>();
    for (String element : accept.split(",")) {
      String[] parts = element.split(";");
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
    return out;
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
