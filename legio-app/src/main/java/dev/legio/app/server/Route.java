package dev.legio.app.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One method and path template of the API ({@code GET /api/v1/sessions/{id}}), who may call it and
 * what answers it. A template's {@code {name}} matches one non-empty path segment.
 */
record Route(String method, String template, Access access, Endpoint endpoint, List<String> parts) {

  Route(String method, String template, Access access, Endpoint endpoint) {
    this(method, template, access, endpoint, segments(template));
  }

  Route {
    parts = List.copyOf(parts);
  }

  /** The path parameters when a path of these segments matches the template, else null. */
  Map<String, String> match(List<String> path) {
    if (parts.size() != path.size()) {
      return null;
    }
    Map<String, String> params = Map.of();
    for (int i = 0; i < parts.size(); i++) {
      String want = parts.get(i);
      String got = path.get(i);
      if (want.startsWith("{") && want.endsWith("}")) {
        if (got.isEmpty()) {
          return null;
        }
        if (params.isEmpty()) {
          params = new HashMap<>(2);
        }
        params.put(want.substring(1, want.length() - 1), got);
      } else if (!want.equals(got)) {
        return null;
      }
    }
    return params;
  }

  /** A path's segments: {@code /api/v1/x} is {@code [api, v1, x]}. */
  static List<String> segments(String path) {
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
