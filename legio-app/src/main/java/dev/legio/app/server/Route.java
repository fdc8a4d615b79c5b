package dev.legio.app.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One method and path template of the API ({@code GET /api/v1/sessions/{id}}), who may call it and
 * what answers it. A template's {@code {name}} matches one non-empty path segment.
 */
record Route(String method, String template, Access access, Endpoint endpoint) {

  /** The path parameters when {@code path} matches the template, else null. */
  Map<String, String> match(String path) {
    List<String> want = segments(template);
    List<String> got = segments(path);
    if (want.size() != got.size()) {
      return null;
    }
    Map<String, String> params = new HashMap<>(2);
    for (int i = 0; i < want.size(); i++) {
      String w = want.get(i);
      String g = got.get(i);
      if (w.startsWith("{") && w.endsWith("}")) {
        if (g.isEmpty()) {
          return null;
        }
        params.put(w.substring(1, w.length() - 1), g);
      } else if (!w.equals(g)) {
        return null;
      }
    }
    return params;
  }

  private static List<String> segments(String path) {
    List<String> out = new ArrayList<>(6);
    int start = 1;
    while (start <= path.length()) {
      int slash = path.indexOf('/', start);
      int end = slash < 0 ? path.length() : slash;
      out.add(path.substring(start, end));
      start = end + 1;
    }
    return out;
  }
}
