package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpSessionTest {
  private static McpSchema.JSONRPCResponse answer(Object id, int chars) {
    return new McpSchema.JSONRPCResponse("2.0", id, Map.of("text", "x".repeat(chars)), null);
  }

  @Test
  void finishedStreamsNotSentInFullAreKeptUpToTheCharacterLimitOldestDroppedFirst() {
    HttpSession session =
        new HttpSession(
            new McpStreamableServerSession(
                "s", null, null, Duration.ofSeconds(1), Map.of(), Map.of()),
            0);
    int big = (int) (HttpSession.KEPT_CHARS / 2) + 1_000;
    SseStream first = session.newStream(1, "tools/call");
    first.append(answer(1, big)); // answered, never carried: kept for a replay
    SseStream second = session.newStream(2, "tools/call");
    second.append(answer(2, big));
    assertThat(session.stream(first.id())).isPresent();

    // the two finished streams keep more than KEPT_CHARS: the oldest goes
    SseStream third = session.newStream(3, "tools/call");
    assertThat(session.stream(first.id())).isEmpty();
    assertThat(session.stream(second.id())).isPresent();
    assertThat(session.stream(third.id())).isPresent();
  }

  @Test
  void aCallThatEnteredBeforeTheSessionEndedNeverBegins() {
    HttpSession session =
        new HttpSession(
            new McpStreamableServerSession(
                "s", null, null, Duration.ofSeconds(1), Map.of(), Map.of()),
            0);
    assertThat(session.enter()).isTrue(); // a POST passed the session check...
    session.close(); // ...then a DELETE ended the session, cancelling the calls it had

    HttpSession.Call call = session.newCall(9, "tools/call").orElseThrow();

    assertThat(call.running().cancelled())
        .as("cancelled as the calls running at the DELETE were, not left to run")
        .isTrue();
    assertThat(call.stream().finished()).isTrue();
  }

  @Test
  void anAnswerTheToolGivesTheMomentItIsInterruptedIsDroppedNotSent() throws Exception {
    HttpSession session =
        new HttpSession(
            new McpStreamableServerSession(
                "s", null, null, Duration.ofSeconds(1), Map.of(), Map.of()),
            0);
    HttpSession.Call call = session.newCall(7, "tools/call").orElseThrow();
    java.lang.reflect.Method begin =
        dev.legio.mcp.RunningCall.class.getDeclaredMethod("begin"); // the tool server's step
    begin.setAccessible(true);
    java.util.concurrent.CountDownLatch begun = new java.util.concurrent.CountDownLatch(1);
    // The worst timing: the tool answers the very moment its thread is interrupted.
    Thread tool =
        new Thread(
            () -> {
              try {
                begin.invoke(call.running());
                begun.countDown();
                Thread.sleep(30_000);
              } catch (InterruptedException expected) {
                // the tool stops
              } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
              }
            }) {
          @Override
          public void interrupt() {
            call.stream().append(answer(7, 10));
            super.interrupt();
          }
        };
    tool.start();
    assertThat(begun.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

    assertThat(session.cancel(dev.legio.mcp.RequestIdKey.of(7))).isTrue();

    tool.join(5_000);
    assertThat(call.stream().answered()).as("the cancelled request is never answered").isFalse();
    assertThat(call.stream().finished()).isTrue();
    assertThat(session.cancel(dev.legio.mcp.RequestIdKey.of(7))).as("cancelled once").isFalse();
  }
}
