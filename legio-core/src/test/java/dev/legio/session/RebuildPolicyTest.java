package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.SessionSpec;
import dev.legio.testing.ScriptedBackend;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link RebuildPolicy}: a stored session and a fresh profile in, the reason (or none) out. */
class RebuildPolicyTest {
  private static final Instant ACTIVE = Instant.parse("2026-11-21T09:00:00Z");
  private static final Duration IDLE = Duration.ofMinutes(30);

  /** The stored session: on back-end {@code scripted}, prompt {@code p1}, roster {@code r1}. */
  private static SessionRecord stored(long inputTokens, String rosterHash) {
    return new SessionRecord(
        "vorenus",
        UUID.randomUUID(),
        "scripted",
        null,
        "p1",
        rosterHash,
        inputTokens,
        0,
        3,
        0,
        ACTIVE,
        ACTIVE,
        ACTIVE.plus(Duration.ofDays(30)),
        SessionRecord.State.ACTIVE,
        null,
        0);
  }

  private static OwnerProfile profile(String backendKind, String promptHash, String rosterHash) {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    backend.kind = backendKind;
    return new OwnerProfile(
        Owner.agent("vorenus"),
        "",
        new SessionShape(
            backend, "prompt", null, SessionSpec.OPERATOR_ROLE, promptHash, rosterHash),
        new SessionLimits(50, 1_000, IDLE),
        List.of());
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("unchanged", stored(0, null), profile("scripted", "p1", null), 0, null),
        Arguments.of(
            "other back-end",
            stored(0, null),
            profile("ollama", "p1", null),
            0,
            RebuildReason.BACKEND_CHANGED),
        Arguments.of(
            "back-end wins over prompt",
            stored(5_000, null),
            profile("ollama", "p2", null),
            60,
            RebuildReason.BACKEND_CHANGED),
        Arguments.of(
            "prompt edited",
            stored(0, null),
            profile("scripted", "p2", null),
            0,
            RebuildReason.PROMPT_CHANGED),
        Arguments.of(
            "prompt wins over roster and tokens",
            stored(5_000, "r1"),
            profile("scripted", "p2", "r2"),
            0,
            RebuildReason.PROMPT_CHANGED),
        Arguments.of(
            "roster changed",
            stored(0, "r1"),
            profile("scripted", "p1", "r2"),
            0,
            RebuildReason.ROSTER_CHANGED),
        Arguments.of("same roster", stored(0, "r1"), profile("scripted", "p1", "r1"), 0, null),
        Arguments.of(
            "a roster where the session had none",
            stored(0, null),
            profile("scripted", "p1", "r1"),
            0,
            RebuildReason.ROSTER_CHANGED),
        Arguments.of(
            "no roster in the profile: the stored one is not compared",
            stored(0, "r1"),
            profile("scripted", "p1", null),
            0,
            null),
        Arguments.of(
            "tokens at the limit", stored(1_000, null), profile("scripted", "p1", null), 0, null),
        Arguments.of(
            "tokens past the limit",
            stored(1_001, null),
            profile("scripted", "p1", null),
            0,
            RebuildReason.TOKEN_LIMIT),
        Arguments.of(
            "tokens win over idleness",
            stored(1_001, null),
            profile("scripted", "p1", null),
            60,
            RebuildReason.TOKEN_LIMIT),
        Arguments.of(
            "idle exactly the timeout", stored(0, null), profile("scripted", "p1", null), 30, null),
        Arguments.of(
            "idle past the timeout",
            stored(0, null),
            profile("scripted", "p1", null),
            31,
            RebuildReason.IDLE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theFirstRuleThatHoldsIsTheReason(
      String name,
      SessionRecord stored,
      OwnerProfile profile,
      int minutesLater,
      RebuildReason expected) {
    Instant now = ACTIVE.plus(Duration.ofMinutes(minutesLater));
    assertThat(RebuildPolicy.check(stored, profile, now)).isEqualTo(Optional.ofNullable(expected));
  }

  @org.junit.jupiter.api.Test
  void aCliSessionThatIsCondensedIsNeverRebuiltForItsTokensButIdlenessStillCounts() {
    SessionRecord cli =
        new SessionRecord(
            "vorenus",
            UUID.randomUUID(),
            "claude-cli",
            "conv-1",
            "p1",
            null,
            900_000,
            0,
            3,
            0,
            ACTIVE,
            ACTIVE,
            ACTIVE.plus(Duration.ofDays(30)),
            SessionRecord.State.ACTIVE,
            null,
            0);
    OwnerProfile profile = profile("claude-cli", "p1", null);

    assertThat(RebuildPolicy.check(cli, profile, ACTIVE, 50_000)).isEmpty();
    assertThat(RebuildPolicy.check(cli, profile, ACTIVE.plus(Duration.ofMinutes(31)), 50_000))
        .contains(RebuildReason.IDLE);
    // Condensing off: the token limit rebuilds it as before.
    assertThat(RebuildPolicy.check(cli, profile, ACTIVE, 0)).contains(RebuildReason.TOKEN_LIMIT);
    // Other back-ends keep the token limit whatever condensing says.
    assertThat(
            RebuildPolicy.check(
                stored(1_001, null), profile("scripted", "p1", null), ACTIVE, 50_000))
        .contains(RebuildReason.TOKEN_LIMIT);
  }
}
