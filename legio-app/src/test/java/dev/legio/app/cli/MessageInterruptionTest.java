package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.session.DispatchListener;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The line a Ctrl-C during {@code legio say} prints, at each stage of the request. */
class MessageInterruptionTest {
  private static Message request(String... agents) {
    return new Message(
        1, UUID.randomUUID(), "caesar", "report", Audience.of(agents), Instant.now(), null);
  }

  @Test
  void beforeTheMessageIsLoggedItWasNotSent() throws Exception {
    MessageInterruption interruption = new MessageInterruption(DispatchListener.NONE);
    assertThat(interruption.line())
        .isEqualTo("legio: interrupted before the message was logged: it was not sent");

    interruption.sending();
    interruption.ended(); // refused, never logged
    assertThat(interruption.line())
        .isEqualTo("legio: interrupted before the message was logged: it was not sent");
  }

  @Test
  void whileItIsBeingLoggedTheLineWaitsForTheAppendToEnd() throws Exception {
    MessageInterruption interruption =
        new MessageInterruption(DispatchListener.NONE, Duration.ofSeconds(30));
    interruption.sending();
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                Thread.sleep(200);
              } catch (InterruptedException e) {
                return;
              }
              interruption.requestLogged(request("vorenus"));
            });

    long start = System.nanoTime();
    assertThat(interruption.line())
        .isEqualTo(
            "legio: interrupted: your message is logged (legio history shows it), but vorenus had"
                + " not answered it and will not (its turn ends with this process); send it again"
                + " for a reply");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void anAppendThatDoesNotEndInTimeIsToldAsUnknown() throws Exception {
    MessageInterruption interruption =
        new MessageInterruption(DispatchListener.NONE, Duration.ofMillis(50));
    interruption.sending();
    assertThat(interruption.line())
        .isEqualTo(
            "legio: interrupted while the message was being logged: legio history shows whether"
                + " it was; no reply to it will come");
  }

  @Test
  void severalAgentsAndAfterTheTurns() throws Exception {
    MessageInterruption interruption = new MessageInterruption(DispatchListener.NONE);
    interruption.sending();
    interruption.requestLogged(request("vorenus", "pullo"));
    assertThat(interruption.line())
        .isEqualTo(
            "legio: interrupted: your message is logged (legio history shows it, with any reply"
                + " that came), but the agents that had not answered it will not (their turns end"
                + " with this process); send it again for their replies");

    interruption.ended();
    assertThat(interruption.line())
        .isEqualTo(
            "legio: interrupted after the turns ended: what the agents answered is in the log"
                + " (legio history shows it)");
  }
}
