package dev.legio.app.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.eclipse.jetty.server.Request;

/**
 * A request's query parameters, as the endpoints read them.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every parameter the API reads takes one value. One given twice or more ({@code
 *       ?limit=5&limit=500}, also with the same value, also when one of them is empty or
 *       percent-encoded, {@code %6Cimit}) is 400 naming it: taking one of the values would answer
 *       another question than the client may think it asked. So a JSON body's key written twice is
 *       refused too ({@link JsonBody}).
 *   <li>A parameter the endpoint reads that is sent empty ({@code ?limit=}, or {@code ?limit}
 *       alone) is 400 naming it and what to send: such a client has a bug (a variable it never
 *       set), and reading the empty value as absent would answer with the default, another question
 *       than the one it meant to ask. A parameter left out takes its default.
 *   <li>A whole number ({@link WholeNumber}) outside the endpoint's range is 400 naming the
 *       parameter and the range.
 *   <li>A parameter is checked when its endpoint reads it: one the endpoint does not use is
 *       ignored, as a body's unused field is, once, twice or empty.
 *   <li>Names and values are percent-decoded as UTF-8 ({@link PercentEncoding}); an absent
 *       parameter is null. A value that is not UTF-8, percent-encoded is 400 naming its parameter
 *       when the endpoint reads it; a name that is not is 400 when the endpoint reads any.
 * </ul>
 */
final class QueryParameters {
  /** Each name, decoded, with its values as sent (still percent-encoded). */
  private final Map<String, List<String>> raw;

  private QueryParameters(Map<String, List<String>> raw) {
    this.raw = raw;
  }

  static QueryParameters of(Request request) {
    Map<String, List<String>> raw = new LinkedHashMap<>();
    String query = request.getHttpURI().getQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int equals = pair.indexOf('=');
        String name =
            PercentEncoding.decode(
                equals < 0 ? pair : pair.substring(0, equals), "the name of a query parameter");
        raw.computeIfAbsent(name, n -> new ArrayList<>())
            .add(equals < 0 ? "" : pair.substring(equals + 1));
      }
    }
    return new QueryParameters(raw);
  }

  /**
   * The one value of {@code name}, or null when it is absent; 400 when it is given twice, or empty.
   *
   * @param whatToSend what a valid value is, as the refusal of an empty one says it ("caesar,
   *     legatus, an agent or a channel such as telegram:123, or leave it out for caesar")
   */
  String single(String name, String whatToSend) {
    List<String> values = raw.get(name);
    if (values == null || values.isEmpty()) {
      return null;
    }
    if (values.size() > 1) {
      throw ApiException.badRequest(
          "query parameter '"
              + name
              + "' is given "
              + values.size()
              + " times; send it once (?"
              + name
              + "=...)");
    }
    String value = values.get(0);
    if (value.isEmpty()) {
      throw ApiException.badRequest(
          "query parameter '" + name + "' is empty (?" + name + "=): give " + whatToSend);
    }
    return PercentEncoding.decode(value, "query parameter '" + name + "'");
  }

  /**
   * The whole number {@code name} gives, within [min, max], or {@code fallback} when it is absent;
   * 400 when it is given twice, empty, not a whole number or out of the range.
   */
  long wholeNumber(String name, long fallback, long min, long max) {
    List<String> given = raw.get(name);
    if (given == null || given.isEmpty()) {
      return fallback; // absent: nothing to check, no advice to build (most requests)
    }
    String range = "a whole number from " + min + " to " + max;
    String text = single(name, range + ", or leave it out for its default");
    OptionalLong value = WholeNumber.parse(text);
    if (value.isPresent() && value.getAsLong() >= min && value.getAsLong() <= max) {
      return value.getAsLong();
    }
    throw ApiException.badRequest("query parameter '" + name + "' must be " + range);
  }
}
