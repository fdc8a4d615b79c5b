package dev.legio.store;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.legio.testing.MutableClock;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * How a node measures its clock against the database's: the midpoint of the round trip, the
 * smallest round trip believed, a failure changing nothing.
 */
class DatabaseAlignedClockTest {
  private final MutableClock node = MutableClock.at("2026-03-01T12:00:00Z");
  private final DatabaseAlignedClock clock =
      new DatabaseAlignedClock(node, Duration.ofMillis(7_500));
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(DatabaseAlignedClock.class);

  @BeforeEach
  void listen() {
    logged.start();
    logger.addAppender(logged);
    logger.setLevel(Level.INFO);
  }

  @AfterEach
  void stopListening() {
    logger.detachAppender(logged);
    logger.setLevel(null);
  }

  /**
   * A database whose clock reads {@code ahead} of the node's at the midpoint of a read taking
   * {@code roundTrip} on the node's clock.
   */
  private DatabaseAlignedClock.DatabaseTime database(long aheadMillis, long roundTripMillis) {
    return () -> {
      Instant midpoint = node.instant().plusMillis(roundTripMillis / 2);
      node.advance(Duration.ofMillis(roundTripMillis));
      return midpoint.plusMillis(aheadMillis);
    };
  }

  private static DatabaseAlignedClock.DatabaseTime down() {
    return () -> {
      throw new SQLException("Connection refused");
    };
  }

  @Test
  void theDatabasesReadingCountsAsTakenAtTheMidpointOfTheRoundTrip() {
    Instant start = node.instant();

    var measured = clock.measure(database(5_000, 40)).orElseThrow();

    assertThat(measured.offset()).isEqualTo(Duration.ofSeconds(5));
    assertThat(measured.roundTrip()).isEqualTo(Duration.ofMillis(40));
    assertThat(clock.offset()).isEqualTo(Duration.ofSeconds(5));
    assertThat(clock.instant()).isEqualTo(start.plusMillis(40).plusSeconds(5));
    node.advance(Duration.ofMinutes(1));
    assertThat(clock.instant()).isEqualTo(node.instant().plusSeconds(5));
  }

  @Test
  void theMeasurementWithTheSmallestRoundTripIsBelieved() {
    clock.measure(database(5_000, 100));
    clock.measure(database(5_020, 10));
    assertThat(clock.offset()).isEqualTo(Duration.ofMillis(5_020));

    clock.measure(database(4_990, 50)); // slower, so less sure: the 10 ms one stays believed

    assertThat(clock.offset()).isEqualTo(Duration.ofMillis(5_020));
    assertThat(clock.believed().orElseThrow().roundTrip()).isEqualTo(Duration.ofMillis(10));
  }

  @Test
  void theBestMeasurementIsForgottenOnceEightNewerOnesWereMade() {
    clock.measure(database(5_000, 2));
    for (int i = 1; i <= OffsetSamples.KEPT - 1; i++) {
      clock.measure(database(5_000 + i, 20));
      assertThat(clock.offset()).isEqualTo(Duration.ofMillis(5_000));
    }

    clock.measure(database(5_008, 20));

    assertThat(clock.offset()).isEqualTo(Duration.ofMillis(5_008));
  }

  @Test
  void aMeasurementThatCannotBeTheSameOffsetMeansAClockSteppedAndIsBelievedAtOnce() {
    clock.measure(database(5_000, 2));

    clock.measure(database(65_000, 80)); // 60 s later than the believed range allows

    assertThat(clock.offset()).isEqualTo(Duration.ofSeconds(65));
  }

  @Test
  void aFailedMeasurementKeepsTheOffsetBelievedZeroBeforeTheFirst() {
    assertThat(clock.measure(down())).isEmpty();
    assertThat(clock.offset()).isZero();
    assertThat(clock.instant()).isEqualTo(node.instant());

    clock.measure(database(-3_000, 4));
    assertThat(clock.measure(down())).isEmpty();

    assertThat(clock.offset()).isEqualTo(Duration.ofSeconds(-3));
  }

  @Test
  void aMeasurementDuringWhichTheNodesClockWentBackIsIgnored() {
    clock.measure(database(1_000, 4));

    assertThat(
            clock.measure(
                () -> {
                  node.advance(Duration.ofSeconds(-30));
                  return node.instant();
                }))
        .isEmpty();

    assertThat(clock.offset()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void anOffsetBeyondTheWarningIsLoggedOnceInWordsAndItsReturnOnce() {
    clock.measure(database(-60_000, 4)); // this machine is a minute ahead
    clock.measure(database(-60_000, 4));

    assertThat(logged.list)
        .filteredOn(e -> e.getLevel() == Level.WARN)
        .singleElement()
        .extracting(ILoggingEvent::getFormattedMessage)
        .asString()
        .contains("this machine's clock is 60.000 s ahead of the database's")
        .contains("round trip of 4 ms")
        .contains("NTP");

    clock.measure(database(-1_000, 2)); // a step back: believed at once
    clock.measure(database(-1_000, 2));

    assertThat(logged.list)
        .filteredOn(e -> e.getLevel() == Level.INFO)
        .singleElement()
        .extracting(ILoggingEvent::getFormattedMessage)
        .asString()
        .contains("back within 7.500 s of the database's")
        .contains("1.000 s ahead of");
  }

  @Test
  void anotherZoneSharesTheOffset() {
    var paris = clock.withZone(ZoneId.of("Europe/Paris"));
    clock.measure(database(2_000, 0));

    assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
    assertThat(paris.instant()).isEqualTo(node.instant().plusSeconds(2));
  }

  @Test
  void keepMeasuringMeasuresAgainAndAgainOnAThreadOfItsOwn() throws Exception {
    java.util.concurrent.CountDownLatch twice = new java.util.concurrent.CountDownLatch(2);
    java.util.concurrent.atomic.AtomicReference<String> thread =
        new java.util.concurrent.atomic.AtomicReference<>();
    AutoCloseable measuring =
        clock.keepMeasuring(
            () -> {
              thread.set(Thread.currentThread().getName());
              twice.countDown();
              return node.instant().plusSeconds(4);
            },
            Duration.ofMillis(10));
    try {
      assertThat(twice.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    } finally {
      measuring.close();
    }

    assertThat(thread.get()).isEqualTo("legio-clock-alignment");
    assertThat(clock.offset()).isEqualTo(Duration.ofSeconds(4));
  }
}
