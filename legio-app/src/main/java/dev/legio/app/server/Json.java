package dev.legio.app.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The server's one JSON mapper (timestamps are written as ISO-8601 strings by the views). Its
 * buffers are shared by all threads: Jackson's default keeps them per thread, and a virtual thread
 * per request would allocate them anew for every answer.
 */
final class Json {
  static final ObjectMapper MAPPER =
      new ObjectMapper(
          JsonFactory.builder()
              .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
              .build());

  private Json() {}
}
