package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class ExtractionStateTest {
  @TempDir Path dir;

  @Test
  void aBrokenStateFileIsReportedInWordsWithoutJavaNamesAndMovedAside() throws Exception {
    MemoryFolder folder = MemoryFolder.of(dir, "vorenus");
    Path state = folder.file(".extraction_state.json");
    Files.createDirectories(state.getParent());
    Files.writeString(state, "{\"sessions\": {\"s1\": {\"extractions\": \"two\"}}}\n");
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    Logger logger = (Logger) LoggerFactory.getLogger(ExtractionState.class);
    logged.start();
    logger.addAppender(logged);
    try {
      assertThat(ExtractionState.read(folder).sessions()).isEmpty();
    } finally {
      logger.detachAppender(logged);
    }

    assertThat(logged.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly(
            state
                + " cannot be parsed (line 1, column 37, at sessions.s1.extractions: expected a"
                + " number, found two); moved it to .extraction_state.json.corrupt and starting"
                + " afresh");
    assertThat(state.resolveSibling(".extraction_state.json.corrupt")).exists();
  }
}
