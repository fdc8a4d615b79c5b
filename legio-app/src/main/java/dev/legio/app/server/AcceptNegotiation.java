package dev.legio.app.server;

import dev.legio.app.http.AcceptHeader;
import dev.legio.app.http.HeaderText;
import java.util.List;

/**
 * Which of the media types an endpoint answers with the request's {@code Accept} header takes (RFC
 * 9110 12.5.1), each weighed as {@link AcceptHeader} says.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>No {@code Accept} (or an empty one) takes every type: the endpoint's first, its default.
 *   <li>A type takes the weight of the most specific range that matches it; {@code q=0}, or no
 *       range that matches, is "not acceptable" ({@link AcceptHeader}).
 *   <li>The type of the highest weight wins; of equal weights, the one matched more specifically
 *       (named exactly rather than through a wildcard), then the one whose range the client listed
 *       first, then the endpoint's order. So {@code Accept: text/event-stream} streams (also with
 *       {@code , application/json} after it), while curl's {@code *}{@code /*} and no {@code
 *       Accept} get the default (JSON).
 *   <li>When the header takes none of the types: 406 naming them, so the client knows what to ask
 *       for.
 * </ul>
 */
final class AcceptNegotiation {
  private AcceptNegotiation() {}

  /**
   * Of {@code offered} (lower-case {@code type/subtype}, the default first), the one {@code accept}
   * takes; 406 naming them when it takes none ({@code answering}: what the error says answers, such
   * as {@code POST /api/v1/messages}).
   */
  static String choose(String accept, List<String> offered, String answering) {
    if (accept == null || accept.isBlank()) {
      return offered.get(0);
    }
    AcceptHeader header = AcceptHeader.of(accept);
    String best = null;
    AcceptHeader.Weight bestWeight = null;
    for (String type : offered) {
      AcceptHeader.Weight w = header.weigh(type);
      boolean better =
          w.taken()
              && (bestWeight == null
                  || w.q() > bestWeight.q()
                  || (w.q() == bestWeight.q()
                      && (w.specificity() > bestWeight.specificity()
                          || (w.specificity() == bestWeight.specificity()
                              && w.position() < bestWeight.position()))));
      if (better) {
        best = type;
        bestWeight = w;
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
}
