package dev.legio.app.server;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The server's one JSON mapper (timestamps are written as ISO-8601 strings by the views). */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}
}
