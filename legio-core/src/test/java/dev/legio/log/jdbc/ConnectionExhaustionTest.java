package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.log.MessageLogException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConnectionExhaustionTest {
  private static RuntimeException tooManyClients() {
    return new RuntimeException(
        "pool initialisation failed",
        new SQLException("FATAL: sorry, too many clients already", "53300"));
  }

  @Test
  void anExhaustedServerIsTriedAgainUntilAConnectionIsFree() {
    AtomicInteger tries = new AtomicInteger();
    String opened =
        ConnectionExhaustion.retrying(
            "pg",
            Duration.ofSeconds(5),
            () -> {
              if (tries.incrementAndGet() < 3) {
                throw tooManyClients();
              }
              return "connected";
            });
    assertThat(opened).isEqualTo("connected");
    assertThat(tries).hasValue(3);
  }

  @Test
  void aServerThatStaysExhaustedGivesAClearErrorAfterThePatience() {
    assertThatThrownBy(
            () ->
                ConnectionExhaustion.retrying(
                    "127.0.0.1:5432/test",
                    Duration.ofMillis(400),
                    () -> {
                      throw tooManyClients();
                    }))
        .isInstanceOf(MessageLogException.class)
        .hasMessageContaining("127.0.0.1:5432/test has no free connection (too many clients)")
        .hasMessageContaining("[praetorium] pool_size")
        .hasMessageContaining("max_connections");
  }

  @Test
  void otherFailuresAreNotRetried() {
    AtomicInteger tries = new AtomicInteger();
    assertThatThrownBy(
            () ->
                ConnectionExhaustion.retrying(
                    "pg",
                    Duration.ofSeconds(5),
                    () -> {
                      tries.incrementAndGet();
                      throw new RuntimeException(
                          new SQLException("password authentication failed", "28P01"));
                    }))
        .hasMessageContaining("password authentication failed");
    assertThat(tries).hasValue(1);
  }
}
