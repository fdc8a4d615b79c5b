package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CommitDelayTest {

  @Test
  void aLoneWriterNeverWaits() {
    CommitDelay delay = new CommitDelay();
    assertThat(delay.waitNanos(1)).isZero();
    for (int i = 0; i < 100; i++) {
      delay.record(1, 5_000_000);
      assertThat(delay.waitNanos(1)).isZero();
    }
  }

  @Test
  void afterLargeTransactionsItWaitsAQuarterOfOneForTheWritersThatAreMissing() {
    CommitDelay delay = new CommitDelay();
    delay.record(8, 4_000_000);
    assertThat(delay.expectedBatch()).isEqualTo(8);
    assertThat(delay.waitNanos(3)).isEqualTo(1_000_000);
    assertThat(delay.waitNanos(8)).isZero();
    assertThat(delay.waitNanos(12)).isZero();
  }

  @Test
  void theWaitIsCappedAtTwoMilliseconds() {
    CommitDelay delay = new CommitDelay();
    delay.record(8, 40_000_000);
    assertThat(delay.waitNanos(1)).isEqualTo(CommitDelay.MAX_WAIT_NANOS);
  }

  @Test
  void whenWritersGoAwayTheExpectedBatchShrinksBackToOne() {
    CommitDelay delay = new CommitDelay();
    delay.record(8, 1_000_000);
    int transactions = 0;
    while (delay.waitNanos(1) > 0) {
      delay.record(1, 1_000_000);
      transactions++;
    }
    assertThat(transactions).isBetween(5, 20);
    assertThat(delay.expectedBatch()).isEqualTo(1);
  }
}
