package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentProfile;
import dev.legio.backend.SessionSpec;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.NewMessage;
import dev.legio.log.PraetoriumXml;
import dev.legio.testing.InMemoryMessageLog;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link HistoryInjector}: what a turn carries, for each kind of owner, fresh or not, over one log.
 */
class HistoryInjectorTest {
  private static final Pattern PRAETORIUM =
      Pattern.compile("<praetorium\\b[^>]*>.*?</praetorium>", Pattern.DOTALL);
  private static final String STATUS = "<status of the centuriones/>";

  /**
   * The log every case reads: sequence numbers 1 to 7, the request is number 8.
   *
   * <ol>
   *   <li>caesar to vorenus: v1
   *   <li>caesar to pullo: p1
   *   <li>telegram:1 to itself: t1
   *   <li>legatus to telegram:1: t-answer
   *   <li>caesar to all: everyone
   *   <li>vorenus to all: v-all
   *   <li>caesar to caesar: note
   * </ol>
   */
  private static InMemoryMessageLog log() {
    InMemoryMessageLog log = new InMemoryMessageLog(MutableClock.at("2026-11-21T09:00:00Z"));
    log.append(NewMessage.of("caesar", Audience.of("vorenus"), "v1"));
    log.append(NewMessage.of("caesar", Audience.of("pullo"), "p1"));
    log.append(NewMessage.of("telegram:1", Audience.of("telegram:1"), "t1"));
    log.append(NewMessage.of("legatus", Audience.of("telegram:1"), "t-answer"));
    log.append(NewMessage.of("caesar", Audience.ALL, "everyone"));
    log.append(NewMessage.of("vorenus", Audience.ALL, "v-all"));
    log.append(NewMessage.of("caesar", Audience.of("caesar"), "note"));
    return log;
  }

  private static OwnerProfile profile(String owner, int window) {
    return new OwnerProfile(
        Owner.of(owner),
        "",
        new SessionShape(
            ScriptedBackend.forgetful(), "prompt", null, SessionSpec.OPERATOR_ROLE, "p", null),
        new SessionLimits(window, 1_000, Duration.ofMinutes(30)),
        List.of());
  }

  static Stream<Arguments> cases() {
    List<String> all = List.of("v1", "p1", "t1", "t-answer", "everyone", "v-all", "note");
    return Stream.of(
        // owner, window, fresh, last injected, injected texts, notice, status
        Arguments.of("vorenus", 50, true, 0, List.of("v1", "everyone", "v-all"), true, false),
        Arguments.of("vorenus", 2, true, 0, List.of("everyone", "v-all"), true, false),
        Arguments.of("vorenus", 50, true, 7, List.of("v1", "everyone", "v-all"), true, false),
        Arguments.of("vorenus", 50, false, 1, List.of("everyone"), false, false),
        Arguments.of("vorenus", 50, false, 5, List.of(), false, false),
        Arguments.of("vorenus", 1, false, 0, List.of(), false, false),
        Arguments.of("vorenus", 2, false, 0, List.of("everyone"), false, false),
        Arguments.of("pullo", 50, false, 0, List.of("p1", "everyone", "v-all"), false, false),
        Arguments.of(
            "telegram:1", 50, true, 0, List.of("t1", "t-answer", "everyone", "v-all"), true, false),
        Arguments.of("telegram:1", 50, false, 3, List.of("everyone", "v-all"), false, false),
        Arguments.of("legatus", 50, true, 0, all, true, true),
        Arguments.of("legatus", 3, true, 0, List.of("everyone", "v-all", "note"), true, true),
        Arguments.of("legatus", 50, false, 0, List.of(), false, true),
        Arguments.of("legatus", 50, false, 5, List.of(), false, true));
  }

  @ParameterizedTest(name = "{0}, window {1}, fresh {2}, after {3}: {4}")
  @MethodSource("cases")
  void aTurnCarriesWhatItsOwnerMaySeeAndHasNotYetReceived(
      String owner,
      int window,
      boolean fresh,
      long lastInjected,
      List<String> injected,
      boolean notice,
      boolean status) {
    InMemoryMessageLog log = log();
    List<List<AgentProfile>> statusAsked = new ArrayList<>();
    HistoryInjector injector =
        new HistoryInjector(
            log::visibleTo,
            centuriones -> {
              statusAsked.add(centuriones);
              return STATUS;
            });
    Message request = request(log.lastSequence() + 1);

    String sent = injector.compose(profile(owner, window), fresh, lastInjected, request);

    assertThat(injectedTexts(sent)).isEqualTo(injected);
    assertThat(sent.contains(PraetoriumXml.CONTEXT_NOTICE)).isEqualTo(notice);
    assertThat(sent.contains(STATUS)).isEqualTo(status);
    assertThat(statusAsked).hasSize(status ? 1 : 0);
    if (injected.isEmpty() && !status) {
      assertThat(sent).isEqualTo("the request");
    } else {
      assertThat(sent).endsWith("\n\nthe request").doesNotContain("\n\n\n");
    }
    if (!injected.isEmpty()) {
      assertThat(sent).startsWith("<praetorium");
      Matcher block = PRAETORIUM.matcher(sent);
      assertThat(block.find()).isTrue();
      assertThat(PraetoriumXml.parse(block.group()).viewer()).isEqualTo(Owner.of(owner).viewer());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("owners")
  void aFreshSessionOverAnEmptyLogCarriesTheRequestAloneOrWithTheStatus(String owner) {
    InMemoryMessageLog empty = new InMemoryMessageLog(MutableClock.at("2026-11-21T09:00:00Z"));
    HistoryInjector injector = new HistoryInjector(empty::visibleTo, centuriones -> STATUS);
    String sent = injector.compose(profile(owner, 50), true, 0, request(1));
    assertThat(sent)
        .isEqualTo(owner.equals("legatus") ? STATUS + "\n\nthe request" : "the request");
  }

  static Stream<String> owners() {
    return Stream.of("legatus", "vorenus", "telegram:1");
  }

  private static Message request(long sequence) {
    return new Message(
        sequence,
        UUID.randomUUID(),
        "caesar",
        "the request",
        Audience.of("vorenus"),
        java.time.Instant.parse("2026-11-21T09:00:00Z"),
        null);
  }

  private static List<String> injectedTexts(String sent) {
    Matcher m = PRAETORIUM.matcher(sent);
    return m.find()
        ? PraetoriumXml.parse(m.group()).entries().stream().map(PraetoriumXml.Entry::text).toList()
        : List.of();
  }

  @org.junit.jupiter.api.Test
  void oneHugeMessageIsCutSoThatAFreshSessionDoesNotStartPastItsInputLimit() {
    InMemoryMessageLog log = new InMemoryMessageLog(MutableClock.at("2026-11-21T09:00:00Z"));
    Message pasted =
        log.append(NewMessage.of("caesar", Audience.of("vorenus"), "y".repeat(1 << 20)));
    log.append(NewMessage.of("caesar", Audience.of("vorenus"), "what does it say?"));
    Message request = log.append(NewMessage.of("caesar", Audience.of("vorenus"), "and now?"));
    HistoryInjector injector = new HistoryInjector(log::visibleTo, centuriones -> STATUS);

    // max_input_tokens 1,000 in this profile: at most 2,000 characters of history.
    String text = injector.compose(profile("vorenus", 50), true, 0, request);

    assertThat(text.length()).isLessThan(2_000 + 1_000);
    assertThat(text)
        .contains("the whole message is in the praetorium, nuntius " + pasted.id())
        .contains("what does it say?")
        .endsWith("and now?");
  }
}
