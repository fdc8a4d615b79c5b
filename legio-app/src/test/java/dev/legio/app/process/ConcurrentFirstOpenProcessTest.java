package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several {@code legio say} processes started at once on a workspace whose praetorium.db does not
 * exist yet: they create and migrate it one after the other, and every one of them is answered.
 */
class ConcurrentFirstOpenProcessTest {
  private static final int PROCESSES = 6;

  @TempDir Path dir;

  @Test
  void processesOpeningANewDatabaseAtOnceAllSucceed() throws Exception {
    Path ws = Workspaces.init(dir, "legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"offline\"");
    Files.deleteIfExists(ws.resolve("castra/praetorium.db"));
    List<LegioProcess> says = new ArrayList<>();
    for (int i = 0; i < PROCESSES; i++) {
      says.add(
          LegioProcess.start(
              dir, Map.of(), "--castra", ws.toString(), "say", "-q", "@pullo", "ping " + i));
    }
    for (LegioProcess say : says) {
      try (say) {
        int code = say.awaitExit(Duration.ofSeconds(120));
        assertThat(say.stderr()).doesNotContain("move it aside").doesNotContain("SQLITE_BUSY");
        assertThat(code).as(say.stderr()).isZero();
        assertThat(say.stdout()).contains("pullo received");
      }
    }
  }
}
