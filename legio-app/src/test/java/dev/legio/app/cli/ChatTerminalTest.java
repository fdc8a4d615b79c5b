package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jline.terminal.Terminal;
import org.junit.jupiter.api.Test;

class ChatTerminalTest {
  @Test
  void aChatWhoseInputIsNoTerminalOpensWithoutJlinesWarning() throws Exception {
    // Under the test runner standard input is a pipe, as with `echo ... | legio chat`.
    Logger jline = Logger.getLogger("org.jline");
    List<LogRecord> records = new ArrayList<>();
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            records.add(r);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Level before = jline.getLevel();
    jline.setLevel(Level.ALL);
    jline.addHandler(handler);
    try (Terminal terminal = ChatTerminal.system()) {
      assertThat(terminal).isNotNull();
    } finally {
      jline.removeHandler(handler);
      jline.setLevel(before);
    }
    assertThat(records).noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue());
  }
}
