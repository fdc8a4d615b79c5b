package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.TokenEstimator;
import dev.legio.config.LegatusSettings;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.NewMessage;
import dev.legio.log.PraetoriumXml;
import dev.legio.testing.InMemoryMessageLog;
import dev.legio.testing.MutableClock;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link LegatusDigest}: what the legatus missed between two turns, over one log. */
class LegatusDigestTest {
  private static final Pattern PRAETORIUM =
      Pattern.compile("<praetorium\\b[^>]*>.*?</praetorium>", Pattern.DOTALL);

  /**
   * The log every case reads; its sequence numbers, the next request is number 12.
   *
   * <ol>
   *   <li>caesar to legatus: hello (the legatus's previous request)
   *   <li>legatus to vorenus: dispatch (its tool call)
   *   <li>vorenus to caesar, replying to 2: dispatch-answer (its tool's result)
   *   <li>legatus to caesar, replying to 1: answer
   *   <li>caesar to vorenus: review this
   *   <li>vorenus to caesar, replying to 5: reviewed
   *   <li>telegram:1 to itself: t1
   *   <li>legatus to telegram:1: t-answer
   *   <li>pullo to all: p-all
   *   <li>caesar to legatus: unanswered (its turn failed)
   *   <li>caesar to caesar: note
   * </ol>
   */
  private static InMemoryMessageLog log() {
    InMemoryMessageLog log = new InMemoryMessageLog(MutableClock.at("2026-11-21T09:00:00Z"));
    Message hello = log.append(NewMessage.of("caesar", Audience.of("legatus"), "hello"));
    Message dispatch = log.append(NewMessage.of("legatus", Audience.of("vorenus"), "dispatch"));
    log.append(
        NewMessage.of("vorenus", Audience.of("caesar"), "dispatch-answer")
            .replyingTo(dispatch.id()));
    log.append(NewMessage.of("legatus", Audience.of("caesar"), "answer").replyingTo(hello.id()));
    Message review = log.append(NewMessage.of("caesar", Audience.of("vorenus"), "review this"));
    log.append(NewMessage.of("vorenus", Audience.of("caesar"), "reviewed").replyingTo(review.id()));
    log.append(NewMessage.of("telegram:1", Audience.of("telegram:1"), "t1"));
    log.append(NewMessage.of("legatus", Audience.of("telegram:1"), "t-answer"));
    log.append(NewMessage.of("pullo", Audience.ALL, "p-all"));
    log.append(NewMessage.of("caesar", Audience.of("legatus"), "unanswered"));
    log.append(NewMessage.of("caesar", Audience.of("caesar"), "note"));
    return log;
  }

  private static final List<String> MISSED =
      List.of("review this", "reviewed", "t1", "t-answer", "p-all", "unanswered", "note");

  static Stream<Arguments> cases() {
    return Stream.of(
        // last injected, request, max tokens, carried texts, the line about the rest (or null)
        Arguments.of(1, 12, 4_000, MISSED, null),
        Arguments.of(4, 12, 4_000, MISSED, null),
        Arguments.of(5, 12, 4_000, MISSED.subList(1, 7), null),
        Arguments.of(1, 6, 4_000, List.of("review this"), null),
        Arguments.of(1, 5, 4_000, List.of(), null),
        Arguments.of(11, 12, 4_000, List.of(), null),
        Arguments.of(1, 12, 0, List.of(), null),
        Arguments.of(
            1,
            12,
            200,
            MISSED.subList(2, 7),
            "2 earlier messages since your last turn left out; get_history has them."),
        Arguments.of(
            1,
            12,
            120,
            MISSED.subList(5, 7),
            "5 earlier messages since your last turn left out; get_history has them."),
        Arguments.of(
            1,
            12,
            25,
            List.of(),
            "7 earlier messages since your last turn left out; get_history" + " has them."));
  }

  @ParameterizedTest(name = "after {0}, before {1}, {2} tokens: {3}")
  @MethodSource("cases")
  void theDigestHoldsWhatTheLegatusMissedNewestFirstWithinItsBound(
      long lastInjected, long request, int maxTokens, List<String> carried, String leftOut) {
    Optional<String> digest =
        new LegatusDigest(log()::visibleTo, maxTokens).between(lastInjected, request);

    if (carried.isEmpty() && leftOut == null) {
      assertThat(digest).isEmpty();
      return;
    }
    String text = digest.orElseThrow();
    assertThat(TokenEstimator.of(text)).isLessThanOrEqualTo(maxTokens);
    Matcher block = PRAETORIUM.matcher(text);
    if (carried.isEmpty()) {
      assertThat(block.find()).isFalse();
    } else {
      assertThat(block.find()).isTrue();
      assertThat(text).startsWith("<praetorium recent=\"true\" viewer=\"legatus\">");
      PraetoriumXml.Parsed parsed = PraetoriumXml.parse(block.group());
      assertThat(parsed.viewer()).isEqualTo("legatus");
      assertThat(parsed.entries()).extracting(PraetoriumXml.Entry::text).isEqualTo(carried);
    }
    if (leftOut == null) {
      assertThat(text).endsWith("</praetorium>");
    } else {
      assertThat(text).endsWith(leftOut);
    }
  }

  @Test
  void aFetchThatFillsTheBoundSaysMoreThan() {
    InMemoryMessageLog log = new InMemoryMessageLog(MutableClock.at("2026-11-21T09:00:00Z"));
    for (int i = 0; i < 150; i++) {
      log.append(NewMessage.of("caesar", Audience.of("vorenus"), "m" + i));
    }
    String text = new LegatusDigest(log::visibleTo, 100).between(0, 151).orElseThrow();
    assertThat(TokenEstimator.of(text)).isLessThanOrEqualTo(100);
    assertThat(text).contains("</praetorium>\nMore than ").endsWith("get_history has them.");
    assertThat(text).contains(">m149</nuntius>");
  }

  @Test
  void digestFalseTurnsItOff() {
    LegatusDigest off = LegatusDigest.of(log()::visibleTo, LegatusSettings.withoutDigest());
    assertThat(off.between(1, 12)).isEmpty();
    LegatusDigest on = LegatusDigest.of(log()::visibleTo, LegatusSettings.defaults());
    assertThat(on.between(1, 12)).isPresent();
  }
}
