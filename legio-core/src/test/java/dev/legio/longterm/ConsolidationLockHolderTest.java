package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ConsolidationLockHolderTest {
  private static final String HOST = ConsolidationLockHolder.thisProcess().host();

  @Test
  void aProcessOfThisHostIsGoneWhenItEndedOrItsPidNowNamesAnotherProcess() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "30").start();
    try {
      Instant started = sleeper.toHandle().info().startInstant().orElseThrow();
      var holder = new ConsolidationLockHolder(HOST, sleeper.pid(), started);
      assertThat(holder.isGone()).isFalse();
      // The same pid with another start instant: the holder ended and its pid was reused.
      assertThat(
              new ConsolidationLockHolder(HOST, sleeper.pid(), started.minusSeconds(60)).isGone())
          .isTrue();
      // No start instant recorded: the pid alone decides.
      assertThat(new ConsolidationLockHolder(HOST, sleeper.pid(), null).isGone()).isFalse();
      sleeper.destroyForcibly().waitFor();
      assertThat(holder.isGone()).isTrue();
    } finally {
      sleeper.destroyForcibly();
    }
  }

  @Test
  void aProcessOfAnotherHostAndThisVeryProcessAreNeverGone() throws Exception {
    Process sleeper = new ProcessBuilder("true").start();
    sleeper.waitFor();
    assertThat(new ConsolidationLockHolder("another-host", sleeper.pid(), null).isGone()).isFalse();
    assertThat(ConsolidationLockHolder.thisProcess().isGone()).isFalse();
  }

  @Test
  void theLockFileNamesItsHolderAndReadsBack() {
    var holder = new ConsolidationLockHolder(HOST, 4242, Instant.parse("2026-11-23T11:30:00.5Z"));
    var content =
        new ConsolidationLockContent(
            Instant.ofEpochSecond(1_000), Instant.ofEpochSecond(1_020), "t-1", holder);
    assertThat(ConsolidationLockContent.parse(content.render())).isEqualTo(content);
    assertThat(content.lastSign()).isEqualTo(Instant.ofEpochSecond(1_020));
    // An earlier version's lock: the time alone.
    assertThat(ConsolidationLockContent.parse("1000\n"))
        .isEqualTo(new ConsolidationLockContent(Instant.ofEpochSecond(1_000), null, null, null));
    assertThat(ConsolidationLockContent.parse("").taken()).isNull();
  }
}
