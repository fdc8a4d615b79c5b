package dev.legio.app.server;

import org.eclipse.jetty.http.HttpURI;

/**
 * A path holding a path parameter ({@code ;name=value} in a segment, RFC 3986's {@code ;}) is
 * refused, never matched without it.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A {@code ;} left unencoded anywhere in the path of a request to the API is a 400 that says
 *       to percent-encode it ({@code %3B}) or leave the parameter out, before the route is looked
 *       for or the token checked, and nothing is done. Jetty drops path parameters from the path it
 *       decodes, so {@code POST /api/v1/memoria/edicta/semi;colon} would publish the edictum {@code
 *       semi}, {@code DELETE /api/v1/sessions/pullo;x} reset {@code pullo}, and {@code GET
 *       /api/v1/memoria/edicta/north-road;v2} answer {@code north-road}: a name that is not the one
 *       sent.
 *   <li>An encoded {@code %3B} is a character of the name like any other, and the endpoint judges
 *       it (an edictum's name cannot hold it: 400 naming the rule).
 * </ul>
 */
final class PathParameterRefusal {
  private PathParameterRefusal() {}

  /** Refuses {@code uri} with 400 when its path holds a path parameter. */
  static void check(HttpURI uri) {
    String raw = uri.getPath();
    if (raw != null && raw.indexOf(';') >= 0) {
      throw ApiException.badRequest(
          "the path holds ';' (a path parameter, which the API does not read: 'name;x' would be"
              + " taken for 'name'); percent-encode a ';' that belongs to a name as %3B, or leave"
              + " the parameter out");
    }
  }
}
