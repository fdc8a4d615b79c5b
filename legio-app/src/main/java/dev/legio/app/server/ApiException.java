package dev.legio.app.server;

import java.util.Map;

/**
 * A request the server refuses, with the status it deserves and a body {@code {"error": "<what to
 * fix>", ...extra}}. Nothing is logged or dispatched for it.
 */
final class ApiException extends RuntimeException {
  private final int status;
  private final transient Map<String, Object> extra;

  ApiException(int status, String error) {
    this(status, error, Map.of());
  }

  ApiException(int status, String error, Map<String, Object> extra) {
    super(error, null, false, false);
    this.status = status;
    this.extra = Map.copyOf(extra);
  }

  int status() {
    return status;
  }

  Map<String, Object> extra() {
    return extra;
  }

  static ApiException badRequest(String error) {
    return new ApiException(400, error);
  }

  static ApiException notFound(String error) {
    return new ApiException(404, error);
  }

  static ApiException forbidden(String error) {
    return new ApiException(403, error);
  }
}
