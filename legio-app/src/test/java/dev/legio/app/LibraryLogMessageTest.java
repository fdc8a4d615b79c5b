package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

class LibraryLogMessageTest {
  private final LoggerContext context = new LoggerContext();

  private String line(String logger, String message, Object... args) {
    RedactingLayout layout = new RedactingLayout();
    layout.setContext(context);
    layout.setPattern("%level %logger - %msg%n");
    layout.start();
    LoggingEvent event =
        new LoggingEvent("test", context.getLogger(logger), Level.WARN, message, null, args);
    return layout.doLayout(event);
  }

  @Test
  void aLibrarysMessageCannotForgeALogLine() {
    String forged = "x\n2026-01-01T00:00:00.000Z ERROR [main] dev.legio.Forged - FORGED";
    String line =
        line(
            "io.modelcontextprotocol.spec.McpServerSession",
            "Unexpected response for unknown id {}",
            forged);
    assertThat(line)
        .isEqualTo(
            "WARN io.modelcontextprotocol.spec.McpServerSession - Unexpected response for unknown"
                + " id x\\u000a2026-01-01T00:00:00.000Z ERROR [main] dev.legio.Forged - FORGED\n");
  }

  @Test
  void legiosOwnMessagesAreWrittenAsTheyAre() {
    assertThat(line("dev.legio.app.LegioApp", "two{}lines", "\n"))
        .isEqualTo("WARN dev.legio.app.LegioApp - two\nlines\n");
  }
}
