package dev.legio.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.jdbc.JdbcDatabase;
import dev.legio.log.jdbc.JdbcMessageLogs;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MigratedSchemaTemplateTest {
  @Test
  void aCopyHoldsWhatFlywayMakesAndLegioMigratesNothingMoreOnIt() {
    try (PostgresTestDatabase flyway = PostgresTestDatabase.create();
        PostgresTestDatabase copy = PostgresTestDatabase.migrated()) {
      open(flyway).close();
      List<String> copied = catalog(copy);
      assertThat(copied).anyMatch(line -> line.startsWith("column nuntii."));

      assertThat(copied).isEqualTo(catalog(flyway));
      try (JdbcDatabase opened = open(copy)) {
        assertThat(opened.health().pendingMigrations()).isEmpty();
      }
      assertThat(catalog(copy)).isEqualTo(copied);
    }
  }

  private static JdbcDatabase open(PostgresTestDatabase database) {
    return JdbcDatabase.openPostgres(
        new JdbcMessageLogs.PostgresOptions(
            database.url(), null, null, 1 << 20, 2, Clock.systemUTC()));
  }

  /**
   * The schema's tables, columns, constraints, indexes, sequences, functions, triggers and views,
   * and its migration history, with the schema's name replaced by {@code S}. The history table's
   * own index and key (named by Flyway, copied by {@code LIKE}) are left out; its rows are not.
   */
  private static List<String> catalog(PostgresTestDatabase database) {
    String s = database.schema();
    List<String> lines = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(database.url());
        Statement st = c.createStatement()) {
      add(
          lines,
          st,
          s,
          "SELECT 'column ' || table_name || '.' || column_name || ' ' || ordinal_position || ' '"
              + " || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '-')"
              + " || ' ' || coalesce(character_maximum_length::text, '-')"
              + " FROM information_schema.columns WHERE table_schema = '"
              + s
              + "'");
      add(
          lines,
          st,
          s,
          "SELECT 'constraint ' || r.relname || ' ' || n.conname || ' ' ||"
              + " pg_get_constraintdef(n.oid) FROM pg_constraint n JOIN pg_class r ON r.oid ="
              + " n.conrelid WHERE r.relnamespace = '"
              + s
              + "'::regnamespace AND r.relname <> 'flyway_schema_history'");
      add(
          lines,
          st,
          s,
          "SELECT 'index ' || indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = '"
              + s
              + "' AND tablename <> 'flyway_schema_history'");
      add(
          lines,
          st,
          s,
          "SELECT 'sequence ' || sequence_name || ' ' || data_type || ' ' || start_value || ' ' ||"
              + " increment FROM information_schema.sequences WHERE sequence_schema = '"
              + s
              + "'");
      add(
          lines,
          st,
          s,
          "SELECT 'function ' || pg_get_functiondef(p.oid) FROM pg_proc p WHERE p.pronamespace = '"
              + s
              + "'::regnamespace");
      add(
          lines,
          st,
          s,
          "SELECT 'trigger ' || pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class r ON"
              + " r.oid = t.tgrelid WHERE r.relnamespace = '"
              + s
              + "'::regnamespace AND NOT t.tgisinternal");
      add(
          lines,
          st,
          s,
          "SELECT 'view ' || viewname || ' ' || definition FROM pg_views WHERE schemaname = '"
              + s
              + "'");
      add(
          lines,
          st,
          s,
          "SELECT 'history ' || installed_rank || ' ' || coalesce(version, '-') || ' ' ||"
              + " description || ' ' || type || ' ' || script || ' ' || coalesce(checksum::text,"
              + " '-') || ' ' || success FROM flyway_schema_history");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return lines.stream().sorted().toList();
  }

  private static void add(List<String> lines, Statement st, String schema, String query)
      throws SQLException {
    try (ResultSet rows = st.executeQuery(query)) {
      while (rows.next()) {
        lines.add(rows.getString(1).replace(schema, "S"));
      }
    }
  }
}
