package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ChannelPool}: least recently used first, at most its limit. Each case is a sequence of
 * steps: {@code a} takes channel {@code s:a}, {@code ?a} looks it up.
 */
class ChannelPoolTest {

  @ParameterizedTest(name = "max {0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // max | steps        | evicted, in order | held, least recently used first
        "3     | a b c        |                   | a b c",
        "2     | a b c        | a                 | b c",
        "2     | a b a c      | b                 | a c",
        "2     | a b ?a c     | b                 | a c",
        "2     | a b ?z c     | a                 | b c",
        "1     | a b c        | a b               | c",
        "2     | a a a        |                   | a",
        "3     | a b c d e ?c f | a b d           | e c f",
      })
  void theLeastRecentlyUsedChannelIsEvictedBeyondTheLimit(
      int max, String steps, String evicted, String held) {
    ChannelPool pool = new ChannelPool(max);
    List<String> gone = new ArrayList<>();
    for (String step : steps.trim().split("\\s+")) {
      if (step.startsWith("?")) {
        OwnerSlot found = pool.find("s:" + step.substring(1));
        if (found != null) {
          assertThat(found.name()).isEqualTo("s:" + step.substring(1));
        }
        continue;
      }
      ChannelPool.Taken taken = pool.take(Owner.channel("s:" + step));
      assertThat(taken.slot().owner).isEqualTo(Owner.channel("s:" + step));
      if (taken.evicted() != null) {
        gone.add(taken.evicted().name().substring(2));
      }
    }
    assertThat(gone).isEqualTo(words(evicted));
    assertThat(pool.all()).extracting(s -> s.name().substring(2)).isEqualTo(words(held));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"s:a", "telegram:9"})
  void takingAHeldChannelAgainGivesItsSlotAndEvictsNothing(String key) {
    ChannelPool pool = new ChannelPool(1);
    OwnerSlot first = pool.take(Owner.channel(key)).slot();
    ChannelPool.Taken again = pool.take(Owner.channel(key));
    assertThat(again.slot()).isSameAs(first);
    assertThat(again.evicted()).isNull();
    assertThat(pool.find(key)).isSameAs(first);
  }

  private static List<String> words(String text) {
    return text == null || text.isBlank() ? List.of() : Arrays.asList(text.trim().split("\\s+"));
  }
}
