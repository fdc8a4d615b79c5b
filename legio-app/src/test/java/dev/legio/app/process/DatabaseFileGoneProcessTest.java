package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio serve} whose praetorium.db is deleted under it stops with an error naming the file,
 * instead of reading the deleted file and writing a new one.
 */
class DatabaseFileGoneProcessTest {
  @TempDir Path dir;

  @Test
  void serveStopsWithAClearErrorWhenItsDatabaseFileIsDeleted() throws Exception {
    Path ws = Workspaces.init(dir, "legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"offline\"");
    Workspaces.edit(ws, "http_port = 8740", "http_port = 0");
    try (LegioProcess serve =
        LegioProcess.start(dir, Map.of(), "--castra", ws.toString(), "serve")) {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!serve.stdout().contains("Stop with Ctrl-C")) {
        assertThat(serve.isAlive()).as(serve.stderr()).isTrue();
        assertThat(System.nanoTime()).as("serve did not start").isLessThan(deadline);
        Thread.sleep(100);
      }
      Path db = ws.resolve("castra/praetorium.db");
      Files.delete(db);

      int code = serve.awaitExit(Duration.ofSeconds(30));
      assertThat(code).isEqualTo(1);
      assertThat(serve.stderr()).contains(db.toString()).contains("was deleted or moved");
    }
  }
}
