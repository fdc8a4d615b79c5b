package dev.legio.app.server;

import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * One server-sent event: its name ({@code message}, {@code status}, {@code reply}...), its id (a
 * message's sequence, so that a client resumes with {@code Last-Event-ID}; null for the others) and
 * its data as one line of JSON.
 */
record ServerEvent(String name, String id, String data) {

  static ServerEvent of(String name, Object data) {
    return of(name, null, data);
  }

  static ServerEvent of(String name, String id, Object data) {
    try {
      return new ServerEvent(name, id, Json.MAPPER.writeValueAsString(data));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A message of the log; its id is its sequence. */
  boolean isMessage() {
    return id != null;
  }

  long sequence() {
    return Long.parseLong(id);
  }
}
