package dev.legio.app;

import dev.legio.config.PraetoriumSettings;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import java.time.Clock;

/**
 * Opens the database a {@code [praetorium]} section describes: SQLite or PostgreSQL, with a
 * PostgreSQL pool sized for the command's {@link LegioApp.Lifetime} (one connection for a one-shot
 * command, {@code pool_size} for a long-running one).
 */
public final class StoreOpener {
  private StoreOpener() {}

  /** Opens the store of {@code p}, sized for {@code lifetime}. */
  public static LegioStore open(PraetoriumSettings p, Clock clock, LegioApp.Lifetime lifetime) {
    return open(p, clock, lifetime, dev.legio.session.LeaseHolder.thisProcess());
  }

  /**
   * Opens the store of {@code p} as node {@code process} (its leases and sessions); for a command
   * that only reads ({@link LegioApp.Lifetime#readsOnly}), a SQLite store read-only when it can
   * (see {@link LegioStore#openSqliteForReading}).
   */
  public static LegioStore open(
      PraetoriumSettings p,
      Clock clock,
      LegioApp.Lifetime lifetime,
      dev.legio.session.LeaseHolder process) {
    return switch (p.store()) {
      case SQLITE -> {
        JdbcMessageLogs.SqliteOptions options =
            new JdbcMessageLogs.SqliteOptions(
                p.sqlitePath(), p.maxMessageBytes(), p.sqliteFullSync(), p.poolSize(), clock);
        yield lifetime.readsOnly()
            ? LegioStore.openSqliteForReading(options, process)
            : LegioStore.openSqlite(options, process);
      }
      case POSTGRES ->
          LegioStore.openPostgres(
              new JdbcMessageLogs.PostgresOptions(
                  p.postgresUrl(),
                  p.postgresUser(),
                  p.postgresPassword(),
                  p.maxMessageBytes(),
                  lifetime.postgresPool(p.poolSize()),
                  clock),
              process);
    };
  }
}
