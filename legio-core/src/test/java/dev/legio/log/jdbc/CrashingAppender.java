package dev.legio.log.jdbc;

import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.NewMessage;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Child process for {@link CrashSafetyTest}: appends forever from four threads and prints the id of
 * every message whose append has returned (been reported committed).
 */
public final class CrashingAppender {
  public static void main(String[] args) {
    MessageLog log =
        args[0].equals("sqlite")
            ? JdbcMessageLogs.openSqlite(
                new JdbcMessageLogs.SqliteOptions(
                    Path.of(args[1]), 1 << 20, false, 2, Clock.systemUTC()))
            : JdbcMessageLogs.openPostgres(
                new JdbcMessageLogs.PostgresOptions(
                    args[1], null, null, 1 << 20, 4, Clock.systemUTC()));
    for (int t = 0; t < 4; t++) {
      String sender = "agent" + t;
      Thread.ofPlatform()
          .start(
              () -> {
                for (long i = 0; ; i++) {
                  Message m = log.append(NewMessage.of(sender, Audience.of("caesar"), "n" + i));
                  System.out.println(m.id());
                }
              });
    }
  }
}
