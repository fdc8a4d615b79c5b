package dev.legio.app.mcp;

import dev.legio.mcp.InternalErrors;
import dev.legio.mcp.McpToolServer;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Mono;

/**
 * The SDK session's side of a POST answered with one JSON body: it keeps the answer to the request;
 * anything sent before it (a notification) has nowhere to go and is dropped.
 */
final class JsonAnswer implements McpStreamableServerTransport {
  private final Object requestId;
  private final String method;
  private final CompletableFuture<McpSchema.JSONRPCResponse> answer = new CompletableFuture<>();

  JsonAnswer(Object requestId, String method) {
    this.requestId = SseStream.key(requestId);
    this.method = method;
  }

  /** The answer, if the session gave one. */
  McpSchema.JSONRPCResponse answer() {
    return answer.getNow(null);
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return sendMessage(message, null);
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message, String messageId) {
    return Mono.fromRunnable(
        () -> {
          if (message instanceof McpSchema.JSONRPCResponse r
              && requestId.equals(SseStream.key(r.id()))) {
            answer.complete((McpSchema.JSONRPCResponse) InternalErrors.guard(r, method));
          }
        });
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
    return McpToolServer.JSON_MAPPER.convertValue(data, type);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.empty();
  }
}
