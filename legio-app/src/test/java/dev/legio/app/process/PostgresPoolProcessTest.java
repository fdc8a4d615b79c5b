package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.PostgresTestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A one-shot command on PostgreSQL holds at most two connections (one pooled, one for the log's
 * writer) while it works, whatever {@code [praetorium] pool_size} says: twenty of them at once stay
 * well within a default server's 100.
 */
class PostgresPoolProcessTest {
  @TempDir Path dir;

  @Test
  void aSayWorkingOnTwoAgentsHoldsAtMostTwoConnections() throws Exception {
    try (PostgresTestDatabase db = PostgresTestDatabase.create();
        FakeMessagesApi model = FakeMessagesApi.start()) {
      Path ws = Workspaces.init(dir, "legion");
      Workspaces.edit(ws, "kind = \"auto\"", "kind = \"anthropic\"");
      Workspaces.edit(ws, "base_url = \"\"", "base_url = \"" + model.baseUrl() + "\"");
      Workspaces.edit(ws, "pool_size = 4", "pool_size = 8");
      model.enqueue(FakeMessagesApi.Reply.hang(), FakeMessagesApi.Reply.hang());
      try (LegioProcess say =
          LegioProcess.start(
              dir,
              Map.of("LEGIO_DB_URL", db.url(), "ANTHROPIC_API_KEY", "test-key-pool-0000"),
              "--castra",
              ws.toString(),
              "say",
              "@vorenus @pullo",
              "report")) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (model.requests().stream().filter(FakeMessagesApi.Request::isMessages).count() < 2) {
          assertThat(say.isAlive()).as("say ended early: %s", say.stderr()).isTrue();
          assertThat(System.nanoTime())
              .as("the requests never reached the model")
              .isLessThan(deadline);
          Thread.sleep(50);
        }
        // Both turns are running: the most connections this command will hold.
        int open = postgresConnectionsOf(say.pid());
        assertThat(open).isBetween(1, 2);
        model.releaseHangs();
        say.awaitExit(Duration.ofSeconds(60));
      }
    }
  }

  /** The established TCP connections of process {@code pid} to port 5432, from /proc. */
  private static int postgresConnectionsOf(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException gone) {
          // closed meanwhile
        }
      }
    }
    int count = 0;
    for (String table : List.of("tcp", "tcp6")) {
      Path file = Path.of("/proc", Long.toString(pid), "net", table);
      if (!Files.exists(file)) {
        continue;
      }
      List<String> lines = Files.readAllLines(file);
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        boolean toPostgres = f[2].endsWith(":1538");
        boolean established = f[3].equals("01");
        if (toPostgres && established && inodes.contains(f[9])) {
          count++;
        }
      }
    }
    return count;
  }
}
