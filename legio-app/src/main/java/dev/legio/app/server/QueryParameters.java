package dev.legio.app.server;

import java.util.List;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

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
 *   <li>A parameter is checked when its endpoint reads it: one the endpoint does not use is
 *       ignored, as a body's unused field is, once or twice.
 *   <li>Names and values are percent-decoded as UTF-8 (Jetty's decoding); an absent parameter is
 *       null.
 * </ul>
 */
final class QueryParameters {
  private final Fields fields;

  private QueryParameters(Fields fields) {
    this.fields = fields;
  }

  static QueryParameters of(Request request) {
    return new QueryParameters(Request.extractQueryParameters(request));
  }

  /** The one value of {@code name}, or null when it is absent; 400 when it is given twice. */
  String single(String name) {
    List<String> values = fields.getValues(name);
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
    return values.get(0);
  }
}
