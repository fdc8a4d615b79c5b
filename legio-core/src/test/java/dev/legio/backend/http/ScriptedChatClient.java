package dev.legio.backend.http;

import dev.legio.backend.Usage;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A {@link ChatClient} that answers from a script, for the tests of the parts above the wire
 * (retries, the tool loop, auto-compact): each step streams its text and answers, or throws the
 * {@link HttpFailure} a vendor's client would. The vendors' own wire protocols are tested against
 * loopback fakes ({@code HttpBackendContract}).
 */
final class ScriptedChatClient implements ChatClient {
  /** One scripted answer. */
  interface Step {
    ChatReply answer(ChatRequest request, Consumer<String> text);
  }

  final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
  private final Deque<Step> steps = new ArrayDeque<>();

  ScriptedChatClient then(Step step) {
    steps.add(step);
    return this;
  }

  /** Answers {@code text}, streamed in one piece, with reported usage. */
  ScriptedChatClient answers(String text, long input, long output) {
    return then(
        (request, stream) -> {
          stream.accept(text);
          return new ChatReply(text, List.of(), new Usage(input, output, 0, 0, false));
        });
  }

  /** Calls the given tools (no text), with reported usage. */
  ScriptedChatClient callsTools(ChatMessage.ToolUse... uses) {
    return then(
        (request, stream) -> new ChatReply("", List.of(uses), new Usage(10, 5, 0, 0, false)));
  }

  /** Fails with {@code failure} before streaming anything. */
  ScriptedChatClient fails(HttpFailure failure) {
    return then(
        (request, stream) -> {
          throw failure;
        });
  }

  @Override
  public ChatReply send(ChatRequest request, Consumer<String> text) {
    requests.add(request);
    Step step = steps.poll();
    if (step == null) {
      throw new AssertionError("no answer scripted for request " + requests.size());
    }
    return step.answer(request, text);
  }

  @Override
  public String baseUrl() {
    return "http://127.0.0.1:9";
  }
}
