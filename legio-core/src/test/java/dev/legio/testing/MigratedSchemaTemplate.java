package dev.legio.testing;

import dev.legio.log.jdbc.JdbcDatabase;
import dev.legio.log.jdbc.JdbcMessageLogs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Legio's PostgreSQL schema, migrated once per test JVM and copied into each test's schema.
 *
 * <p>The rule:
 *
 * <ol>
 *   <li>The JVM's first {@link PostgresTestDatabase#migrated} migrates a template schema the way
 *       Legio does ({@link JdbcDatabase#openPostgres}: Flyway, every script of {@code
 *       db/migration/postgres}); a shutdown hook drops it.
 *   <li>Each copy replays the scripts the template's {@code flyway_schema_history} lists as
 *       applied, in its order, in one transaction on the new schema, and copies those history rows
 *       (checksums included). Legio's own open on the copy then finds every migration applied, as
 *       Flyway wrote them, and migrates nothing; any script it does not find there (one added after
 *       the template was made cannot be: the JVM's classpath does not change) it would still apply.
 *   <li>A script Flyway would not run as it stands (a {@code ${placeholder}}) or a history row that
 *       is not a plain SQL migration fails the copy instead of copying something else.
 * </ol>
 *
 * <p>Why: Flyway applies each of the twenty migrations in a transaction of its own, with its
 * history and lock bookkeeping, 1 – 2 s a schema on a loaded 2-core machine, and most PostgreSQL
 * tests make a schema per test; one replayed transaction is a fraction of that. A test of a
 * migration itself (an older database opened by this build) takes an empty schema ({@link
 * PostgresTestDatabase#create}). {@code MigratedSchemaTemplateTest} checks that a copy's catalog
 * equals that of a schema Flyway migrated.
 */
final class MigratedSchemaTemplate {
  private static final String SCRIPTS = "db/migration/postgres/";

  private static MigratedSchemaTemplate template;

  private final String schema;
  private final String scripts;

  private MigratedSchemaTemplate(String schema, String scripts) {
    this.schema = schema;
    this.scripts = scripts;
  }

  /** This JVM's template, made by the first call (which skips or fails as {@code create} does). */
  static synchronized MigratedSchemaTemplate get() {
    if (template == null) {
      PostgresTestDatabase database = PostgresTestDatabase.create();
      try {
        JdbcDatabase.openPostgres(
                new JdbcMessageLogs.PostgresOptions(
                    database.url(), null, null, 1 << 20, 2, Clock.systemUTC()))
            .close();
        template = new MigratedSchemaTemplate(database.schema(), appliedScripts(database));
      } catch (RuntimeException e) {
        database.close();
        throw e;
      }
      Runtime.getRuntime().addShutdownHook(new Thread(database::close, "drop-schema-template"));
    }
    return template;
  }

  /** Fills the empty schema {@code target} with the template's tables and migration history. */
  void copyInto(String target) {
    try (Connection connection = DriverManager.getConnection(PostgresTestDatabase.baseUrl());
        Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.execute("SET LOCAL search_path TO " + target);
      statement.execute(scripts);
      statement.execute(
          "CREATE TABLE flyway_schema_history (LIKE "
              + schema
              + ".flyway_schema_history INCLUDING ALL);"
              + " INSERT INTO flyway_schema_history SELECT * FROM "
              + schema
              + ".flyway_schema_history");
      connection.commit();
    } catch (SQLException e) {
      throw new IllegalStateException("could not copy the migrated schema into " + target, e);
    }
  }

  /** The template's applied scripts, in the order Flyway applied them, as one SQL text. */
  private static String appliedScripts(PostgresTestDatabase database) {
    StringBuilder sql = new StringBuilder();
    try (Connection connection = DriverManager.getConnection(database.url());
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT type, script, success FROM flyway_schema_history ORDER BY"
                    + " installed_rank")) {
      List<String> names = new ArrayList<>();
      while (rows.next()) {
        if (!"SQL".equals(rows.getString(1)) || !rows.getBoolean(3)) {
          throw new IllegalStateException(
              "the template's history holds a row that is not an applied SQL migration: "
                  + rows.getString(1)
                  + " "
                  + rows.getString(2));
        }
        names.add(rows.getString(2));
      }
      for (String name : names) {
        String script = script(name);
        if (script.contains("${")) {
          throw new IllegalStateException(
              name + " holds a Flyway placeholder, which a replay would not replace");
        }
        sql.append(script).append("\n;\n");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read the template's migration history", e);
    }
    return sql.toString();
  }

  private static String script(String name) {
    try (InputStream in =
        MigratedSchemaTemplate.class.getClassLoader().getResourceAsStream(SCRIPTS + name)) {
      if (in == null) {
        throw new IllegalStateException("no migration script " + SCRIPTS + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("could not read " + SCRIPTS + name, e);
    }
  }
}
