package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.PostgresTestDatabase;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/usage} on PostgreSQL, whose times cannot go millions of years back: the
 * longest age counts everything (it stops at 1970), a longer one is 400, never a 500.
 */
class PostgresUsageApiTest {
  @TempDir Path dir;

  @Test
  void theLongestAgeCountsEverythingAndALongerOneIs400() throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create();
        ServerFixture f =
            new ServerFixture(
                dir, Duration.ofSeconds(5), 4096, Map.of("LEGIO_DB_URL", database.url()))) {
      f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus scout the ford"));
      HttpResponse<String> r = f.get("/api/v1/usage?since=999999999d", f.operator);
      for (int i = 0; i < 250 && r.statusCode() == 200; i++) {
        if (ServerFixture.json(r).at("/total/turns").asLong() >= 1) {
          break;
        }
        Thread.sleep(20); // the ledger is written off the turn's path
        r = f.get("/api/v1/usage?since=999999999d", f.operator);
      }
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(ServerFixture.json(r).at("/total/turns").asLong()).isEqualTo(1);
      assertError(f.get("/api/v1/usage?since=P106751991167300D", f.operator), 400, "at most");
    }
  }
}
