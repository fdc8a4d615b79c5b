package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/** A PostgreSQL log written before senders saw their messages gets their index rows on opening. */
class PostgresSenderVisibilityMigrationTest {

  @Test
  void anAgentSeesWhatItSaidInALogWrittenBeforeTheRule() throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      // The schema as it was before the rule (migrations up to 5), holding two messages.
      Flyway.configure()
          .dataSource(database.url(), null, null)
          .locations("classpath:db/migration/postgres")
          .target("5")
          .load()
          .migrate();
      try (Connection c = DriverManager.getConnection(database.url());
          Statement s = c.createStatement()) {
        s.execute(
            "INSERT INTO nuntii (seq, id, sender, text, audience, timestamp) VALUES"
                + " (1, '11111111-1111-4111-8111-111111111111', 'caesar', '@vorenus review',"
                + " '[\"vorenus\"]', '2026-02-15T12:00:00Z'),"
                + " (2, '22222222-2222-4222-8222-222222222222', 'vorenus', 'looks sound',"
                + " '[\"caesar\"]', '2026-02-15T12:00:01Z')");
        s.execute("INSERT INTO nuntius_audience (name, seq) VALUES ('vorenus', 1), ('caesar', 2)");
        s.execute("UPDATE nuntii_sequence SET last_value = 2");
      }

      try (MessageLog log =
          JdbcMessageLogs.openPostgres(
              new JdbcMessageLogs.PostgresOptions(
                  database.url(),
                  null,
                  null,
                  1 << 20,
                  2,
                  MutableClock.at("2026-03-01T00:00:00Z")))) {
        assertThat(log.visibleTo("vorenus", 10))
            .extracting(Message::text)
            .containsExactly("@vorenus review", "looks sound");
        assertThat(log.visibleTo("pullo", 10)).isEmpty();
      }
    }
  }
}
