package dev.legio.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A throw-away schema in a real PostgreSQL server for one test class.
 *
 * <p>The server is {@code LEGIO_TEST_PG_URL}, by default {@code
 * jdbc:postgresql://127.0.0.1:5432/test?user=postgres}. Where none is reachable the tests are
 * skipped with a message saying how to run them, except under CI ({@code CI=true}), where a missing
 * server fails the build instead of hiding the PostgreSQL tests.
 */
public final class PostgresTestDatabase implements AutoCloseable {
  public static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  private final String baseUrl;
  private final String schema;

  private PostgresTestDatabase(String baseUrl, String schema) {
    this.baseUrl = baseUrl;
    this.schema = schema;
  }

  public static String baseUrl() {
    String url = System.getenv("LEGIO_TEST_PG_URL");
    return url == null || url.isBlank() ? DEFAULT_URL : url;
  }

  /** Creates a fresh schema, or skips (fails under CI) the calling test if there is no server. */
  public static PostgresTestDatabase create() {
    String url = baseUrl();
    String schema = "legio_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      String message =
          "PostgreSQL is not reachable at "
              + url
              + " ("
              + e.getMessage()
              + "). Start it (e.g. `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql)"
              + " main start`) or point LEGIO_TEST_PG_URL at a server to run the PostgreSQL"
              + " tests.";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        Assertions.fail(message + " Under CI the PostgreSQL tests must run.");
      }
      Assumptions.abort(message + " Skipping them.");
    }
    return new PostgresTestDatabase(url, schema.toLowerCase(Locale.ROOT));
  }

  /**
   * Creates a fresh schema that already holds Legio's migrated tables, as {@link
   * dev.legio.log.jdbc.JdbcDatabase#openPostgres} would leave a new one (a copy of this JVM's
   * {@link MigratedSchemaTemplate}); skips (fails under CI) as {@link #create} does. For tests of
   * what Legio does on its tables; a test of a migration itself takes {@link #create}'s empty one.
   */
  public static PostgresTestDatabase migrated() {
    MigratedSchemaTemplate template = MigratedSchemaTemplate.get();
    PostgresTestDatabase database = create();
    try {
      template.copyInto(database.schema());
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
    return database;
  }

  /** A JDBC URL whose tables go into this test's schema. */
  public String url() {
    return baseUrl + (baseUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  public String schema() {
    return schema;
  }

  @Override
  public void close() {
    try (Connection connection = DriverManager.getConnection(baseUrl);
        Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("could not drop test schema " + schema, e);
    }
  }
}
