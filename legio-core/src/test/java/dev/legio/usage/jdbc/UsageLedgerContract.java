package dev.legio.usage.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.Usage;
import dev.legio.pricing.PriceTable;
import dev.legio.pricing.Tokens;
import dev.legio.session.CompletedTurn;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.usage.CostSource;
import dev.legio.usage.Grouping;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.TaskRef;
import dev.legio.usage.TurnCost;
import dev.legio.usage.TurnOutcome;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.UsageRecorder;
import dev.legio.usage.UsageReport;
import dev.legio.usage.UsageRetention;
import dev.legio.usage.UsageTotal;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link UsageLedger} must have (the rules in its Javadoc), run on SQLite and
 * PostgreSQL by the subclasses.
 */
public abstract class UsageLedgerContract {
  protected final MutableClock clock = MutableClock.at("2026-11-20T10:00:00.123456Z");
  private LegioStore store;
  private UsageLedger ledger;

  /** Opens a store on a fresh database under test. */
  protected abstract LegioStore open(MutableClock clock);

  /** Runs after the store is closed (to drop a test schema, say). */
  protected void afterStoreClosed() {}

  @BeforeEach
  void openLedger() {
    store = open(clock);
    ledger = store.usage();
  }

  @AfterEach
  void close() {
    try {
      if (store != null) {
        store.close();
      }
    } finally {
      afterStoreClosed();
    }
  }

  private static LedgerEntry entry(
      Instant at, UUID session, String owner, TaskRef task, String model, Tokens t, String cost) {
    BigDecimal usd = cost == null ? null : new BigDecimal(cost);
    return new LedgerEntry(
        at,
        session,
        owner,
        task,
        "anthropic",
        model,
        t,
        TurnCost.choose("anthropic", usd, null),
        Duration.ofMillis(1_500),
        TurnOutcome.OK);
  }

  @Test
  void anEntryReadsBackAsWritten() {
    UUID session = UUID.randomUUID();
    LedgerEntry task =
        new LedgerEntry(
            clock.instant(),
            session,
            "task:copywriter",
            new TaskRef("campaign:7f3c", "copywriter", "run-42"),
            "claude-cli",
            "claude-sonnet-4-5",
            new Tokens(10, 20, 300, 40),
            TurnCost.choose("claude-cli", new BigDecimal("0.0015"), new BigDecimal("0.0123")),
            Duration.ofMillis(2_345),
            TurnOutcome.OK);
    LedgerEntry unknown =
        new LedgerEntry(
            clock.instant().plusSeconds(1),
            session,
            "vorenus",
            null,
            "openai",
            null,
            new Tokens(1, 2, 0, 0),
            TurnCost.choose("openai", null, null),
            null,
            TurnOutcome.ERROR);
    ledger.append(task);
    ledger.append(unknown);

    assertThat(ledger.entries(Instant.EPOCH, 10)).containsExactly(task, unknown);
    assertThat(ledger.entries(Instant.EPOCH, 1)).containsExactly(task);
    assertThat(ledger.entries(clock.instant().plusMillis(500), 10)).containsExactly(unknown);
  }

  @Test
  void everyOutcomeReadsBackAsWrittenAndFailedTurnsCountInTheTotals() {
    UUID session = UUID.randomUUID();
    List<LedgerEntry> written = new ArrayList<>();
    int n = 0;
    for (TurnOutcome outcome : TurnOutcome.values()) {
      LedgerEntry e =
          new LedgerEntry(
              clock.instant().plusSeconds(n++),
              session,
              "vorenus",
              null,
              "anthropic",
              "claude-sonnet-4-5",
              outcome == TurnOutcome.ERROR ? Tokens.ZERO : new Tokens(100, 10, 0, 0),
              TurnCost.choose("anthropic", new BigDecimal("0.001"), null),
              Duration.ofMillis(10 * n),
              outcome);
      ledger.append(e);
      written.add(e);
    }
    assertThat(ledger.entries(Instant.EPOCH, 10)).containsExactlyElementsOf(written);
    assertThat(ledger.entries(Instant.EPOCH, 10))
        .extracting(LedgerEntry::outcome)
        .containsExactly(
            TurnOutcome.OK, TurnOutcome.ERROR, TurnOutcome.TIMEOUT, TurnOutcome.LEASE_LOST);
    UsageReport report = ledger.report(Instant.EPOCH, Grouping.AGENT);
    assertThat(report.total().turns()).isEqualTo(4);
    assertThat(report.total().failedTurns()).isEqualTo(3);
    assertThat(report.total().tokens()).isEqualTo(new Tokens(300, 30, 0, 0));
  }

  @Test
  void theTotalsEqualTheSumOfTheTurnsInEveryGrouping() {
    Random random = new Random(15);
    List<UUID> sessions = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
    List<String> owners = List.of("legatus", "vorenus", "telegram:42");
    List<String> models = List.of("claude-sonnet-4-5", "gpt-4o");
    List<LedgerEntry> appended = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      Instant at = clock.instant().minus(Duration.ofHours(random.nextInt(72)));
      TaskRef task =
          random.nextInt(3) == 0
              ? new TaskRef("campaign:" + random.nextInt(2), "copywriter", "run-" + i % 4)
              : null;
      Tokens tokens =
          new Tokens(
              random.nextInt(100_000),
              random.nextInt(5_000),
              random.nextInt(50_000),
              random.nextInt(5_000));
      String cost =
          random.nextInt(5) == 0
              ? null
              : BigDecimal.valueOf(random.nextInt(1_000_000_000), 9).toPlainString();
      LedgerEntry e =
          entry(
              at,
              sessions.get(random.nextInt(3)),
              owners.get(random.nextInt(3)),
              task,
              random.nextInt(4) == 0 ? null : models.get(random.nextInt(2)),
              tokens,
              cost);
      ledger.append(e);
      appended.add(e);
    }

    Instant since = clock.instant().minus(Duration.ofHours(48));
    List<LedgerEntry> counted = appended.stream().filter(e -> !e.at().isBefore(since)).toList();
    Map<Grouping, Function<LedgerEntry, String>> keys =
        Map.of(
            Grouping.AGENT, e -> e.task() == null ? e.owner() : e.task().agent(),
            Grouping.SESSION, e -> e.sessionId().toString(),
            Grouping.KEY, e -> e.task() == null ? null : e.task().sessionKey(),
            Grouping.TASK_RUN, e -> e.task() == null ? null : e.task().taskRunId(),
            Grouping.MODEL, e -> e.model() == null ? "anthropic default" : e.model(),
            Grouping.DAY, e -> e.at().toString().substring(0, 10));
    UsageTotal expectedTotal = sum("total", counted);
    for (Grouping by : Grouping.values()) {
      UsageReport report = ledger.report(since, by);
      Map<String, List<LedgerEntry>> groups = new TreeMap<>();
      List<LedgerEntry> none = new ArrayList<>();
      for (LedgerEntry e : counted) {
        String key = keys.get(by).apply(e);
        if (key == null) {
          none.add(e);
        } else {
          groups.computeIfAbsent(key, k -> new ArrayList<>()).add(e);
        }
      }
      List<UsageTotal> expected = new ArrayList<>();
      groups.forEach((key, es) -> expected.add(sum(key, es)));
      if (!none.isEmpty()) {
        expected.add(sum(null, none));
      }
      assertThat(report.rows()).as("rows by %s", by).hasSize(expected.size());
      for (int i = 0; i < expected.size(); i++) {
        assertSame(report.rows().get(i), expected.get(i), by + " row " + i);
      }
      assertSame(report.total(), expectedTotal, by + " total");
    }
    assertThat(expectedTotal.turns()).isEqualTo(counted.size()).isPositive();
    assertThat(expectedTotal.unknownCostTurns()).isPositive();
  }

  private static UsageTotal sum(String group, List<LedgerEntry> entries) {
    UsageTotal total = UsageTotal.empty(group);
    for (LedgerEntry e : entries) {
      boolean unknown = e.cost().usd() == null;
      total =
          total.plus(new UsageTotal(group, 1, e.tokens(), e.cost().usd(), unknown ? 1 : 0), group);
    }
    return total;
  }

  private static void assertSame(UsageTotal actual, UsageTotal expected, String what) {
    assertThat(actual.group()).as(what).isEqualTo(expected.group());
    assertThat(actual.turns()).as(what).isEqualTo(expected.turns());
    assertThat(actual.tokens()).as(what).isEqualTo(expected.tokens());
    assertThat(actual.unknownCostTurns()).as(what).isEqualTo(expected.unknownCostTurns());
    if (expected.costUsd() == null) {
      assertThat(actual.costUsd()).as(what).isNull();
    } else {
      assertThat(actual.costUsd()).as(what).isEqualByComparingTo(expected.costUsd());
    }
  }

  @Test
  void pruningDeletesTurnsOlderThanTheRetentionAsTheClockMoves() {
    UsageRetention retention = new UsageRetention(10, Duration.ofDays(30));
    UUID session = UUID.randomUUID();
    Instant start = clock.instant();
    for (int day = 0; day < 5; day++) {
      ledger.append(
          entry(
              start.plus(Duration.ofDays(day * 10L)),
              session,
              "vorenus",
              null,
              "gpt-4o",
              new Tokens(1, 1, 0, 0),
              "0.01"));
    }
    clock.set(start.plus(Duration.ofDays(30))); // day 30: the turn of day 0 is just 30 days old
    assertThat(ledger.deleteBefore(retention.cutoff(clock.instant()))).isZero();

    clock.advance(Duration.ofDays(1)); // day 31: the turn of day 0 is past 30 days (the TTL)
    assertThat(ledger.deleteBefore(retention.cutoff(clock.instant()))).isEqualTo(1);
    assertThat(ledger.report(Instant.EPOCH, Grouping.SESSION).total().turns()).isEqualTo(4);

    clock.advance(Duration.ofDays(35)); // day 66: days 10, 20 and 30 are past
    assertThat(ledger.deleteBefore(retention.cutoff(clock.instant()))).isEqualTo(3);
    assertThat(ledger.entries(Instant.EPOCH, 10))
        .extracting(LedgerEntry::at)
        .containsExactly(start.plus(Duration.ofDays(40)));
  }

  @Test
  void theRecorderWritesOneRowPerTurnWithBothCostsOfTheCli() {
    UsageRecorder recorder = new UsageRecorder(ledger, PriceTable.builtIn());
    UUID session = UUID.randomUUID();
    // The CLI counts cache tokens as input: 1,000 uncached + 100,000 read + 10,000 written.
    Usage usage = new Usage(111_000, 2_000, 100_000, 10_000, false).withReportedCostUsd(0.0875);
    recorder.turnCompleted(
        CompletedTurn.builder("vorenus", session)
            .fresh(true)
            .sent("scout")
            .reply("done")
            .model("claude-sonnet-4-5-20250929")
            .usage(usage)
            .at(clock.instant())
            .backendKind("claude-cli")
            .duration(Duration.ofSeconds(3))
            .build());
    recorder.turnCompleted(
        CompletedTurn.builder("telegram:42", UUID.randomUUID())
            .fresh(true)
            .sent("hi")
            .reply("hello")
            .usage(new Usage(10, 5, 0, 0, true))
            .at(clock.instant())
            .backendKind("offline")
            .build());

    List<LedgerEntry> rows = ledger.entries(Instant.EPOCH, 10);
    assertThat(rows).hasSize(2);
    LedgerEntry cli = rows.get(0);
    assertThat(cli.tokens()).isEqualTo(new Tokens(1_000, 2_000, 100_000, 10_000));
    assertThat(cli.cost().source()).isEqualTo(CostSource.REPORTED);
    assertThat(cli.cost().usd()).isEqualByComparingTo("0.0875");
    // 1,000 × 3 + 2,000 × 15 + 100,000 × 0.30 + 10,000 × 3.75 = 100,500 per million
    assertThat(cli.cost().priceTableUsd()).isEqualByComparingTo("0.1005");
    assertThat(cli.duration()).isEqualTo(Duration.ofSeconds(3));
    assertThat(cli.outcome()).isEqualTo(TurnOutcome.OK);
    LedgerEntry offline = rows.get(1);
    assertThat(offline.cost().source()).isEqualTo(CostSource.LOCAL);
    assertThat(offline.cost().usd()).isEqualByComparingTo("0");
    assertThat(offline.duration()).isNull();
  }

  @Test
  void aRowWrittenAgainIsCountedOnce() {
    // A retry after a commit whose answer the network lost writes the same rows again.
    UUID session = UUID.randomUUID();
    LedgerEntry first =
        entry(clock.instant(), session, "vorenus", null, "m", new Tokens(10, 1, 0, 0), "0.5");
    LedgerEntry second =
        entry(
            clock.instant().plusMillis(1),
            session,
            "vorenus",
            null,
            "m",
            new Tokens(20, 2, 0, 0),
            "0.25");
    ledger.append(first);
    ledger.append(first);
    ledger.appendAll(List.of(first, second));
    ledger.appendAll(List.of(first, second));

    assertThat(ledger.entries(Instant.EPOCH, 10)).containsExactly(first, second);
    UsageTotal total = ledger.report(Instant.EPOCH, Grouping.AGENT).total();
    assertThat(total.turns()).isEqualTo(2);
    assertThat(total.tokens().input()).isEqualTo(30);
    assertThat(total.costUsd()).isEqualByComparingTo("0.75");
  }

  @Test
  void turnsRecordedTogetherAllLandInOrderInOneCall() {
    UUID session = UUID.randomUUID();
    List<LedgerEntry> entries = new java.util.ArrayList<>();
    for (int i = 0; i < 50; i++) {
      entries.add(
          entry(
              clock.instant().plusMillis(i),
              session,
              "vorenus",
              null,
              "claude-sonnet-4-5",
              new Tokens(i, 1, 0, 0),
              "0.001"));
    }
    ledger.appendAll(List.of());
    ledger.appendAll(entries);

    List<LedgerEntry> rows = ledger.entries(Instant.EPOCH, 100);
    assertThat(rows).hasSize(50);
    assertThat(rows)
        .extracting(e -> e.tokens().input())
        .containsExactlyElementsOf(
            java.util.stream.IntStream.range(0, 50).mapToObj(i -> (long) i).toList());
  }

  @Test
  void theRecorderWritesTurnsToldTogetherAsOneRowEach() {
    UsageRecorder recorder = new UsageRecorder(ledger, PriceTable.builtIn());
    List<CompletedTurn> turns = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      turns.add(
          CompletedTurn.builder("pullo", UUID.randomUUID())
              .sent("q" + i)
              .reply("a" + i)
              .usage(new Usage(10 + i, 5, 0, 0, true))
              .at(clock.instant().plusSeconds(i))
              .backendKind("offline")
              .build());
    }
    recorder.turnsCompleted(turns);

    assertThat(ledger.entries(Instant.EPOCH, 10))
        .extracting(e -> e.tokens().input())
        .containsExactly(10L, 11L, 12L);
  }
}
