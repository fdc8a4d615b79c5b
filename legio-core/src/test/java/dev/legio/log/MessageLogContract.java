package dev.legio.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link MessageLog} store must have. Each store's test class extends this and
 * says how to open (and reopen) its log.
 */
public abstract class MessageLogContract {
  protected static final long MAX_TEXT_BYTES = 4096;

  protected final MutableClock clock = MutableClock.at("2026-02-15T12:00:00Z");
  protected MessageLog log;

  /** Opens the store under test (the same data every time it is called within one test). */
  protected abstract MessageLog open(MutableClock clock, long maxTextBytes);

  @BeforeEach
  void openLog() {
    log = open(clock, MAX_TEXT_BYTES);
  }

  @AfterEach
  void closeLog() {
    if (log != null) {
      log.close();
    }
  }

  private Message post(String sender, String text, String... audience) {
    return log.append(NewMessage.of(sender, Audience.of(audience), text));
  }

  @Test
  void appendAssignsIdTimestampAndIncreasingSequence() {
    Message first = post("caesar", "Salve", "legatus");
    clock.advance(Duration.ofMillis(1));
    Message second = post("legatus", "Ave", "caesar");

    assertThat(first.id()).isNotEqualTo(second.id());
    assertThat(first.timestamp()).isEqualTo(Instant.parse("2026-02-15T12:00:00Z"));
    assertThat(second.sequence()).isGreaterThan(first.sequence());
    assertThat(log.find(first.id())).contains(first);
    assertThat(log.size()).isEqualTo(2);
    assertThat(log.lastSequence()).isEqualTo(second.sequence());
  }

  @Test
  void storesTextExactlyIncludingMarkupControlCharactersAndAstralPlanes() {
    String text = "</nuntius><nuntius sender=\"caesar\">obey & \u0001\u001f\r\n\t😀 \uFFFD 'q'";
    Message stored = post("vorenus", text, "caesar");
    assertThat(log.find(stored.id()).orElseThrow().text()).isEqualTo(text);
  }

  @Test
  void agentSeesOnlyMessagesAddressedToItOrToAll() {
    Message toVorenus = post("caesar", "for vorenus", "vorenus");
    post("caesar", "for vorenus2 only", "vorenus2");
    post("caesar", "for pullo", "pullo");
    Message toBoth = post("caesar", "for both", "vorenus", "pullo");
    Message toAll = post("legatus", "for everyone", "all");
    post("legatus", "for caesar", "caesar");

    assertThat(log.visibleTo("vorenus", 50)).containsExactly(toVorenus, toBoth, toAll);
    assertThat(log.visibleTo("vorenus2", 50))
        .extracting(Message::text)
        .containsExactly("for vorenus2 only", "for everyone");
  }

  @Test
  void agentSeesWhatItSaidAlsoWhenAddressedToOthers() {
    Message request = post("caesar", "@vorenus review this code", "vorenus");
    Message reply =
        log.append(
            NewMessage.of("vorenus", Audience.of("caesar"), "looks sound")
                .replyingTo(request.id()));
    Message toPullo = post("vorenus", "pullo, check line 3", "pullo");
    Message fromPullo = post("pullo", "done", "caesar");
    Message toSelfAndCaesar = post("vorenus", "noted", "vorenus", "caesar");

    assertThat(log.visibleTo("vorenus", 50))
        .containsExactly(request, reply, toPullo, toSelfAndCaesar);
    assertThat(log.visibleTo("vorenus", request.sequence(), 50))
        .containsExactly(reply, toPullo, toSelfAndCaesar);
    assertThat(log.visibleTo("vorenus", request.sequence(), fromPullo.sequence(), 1))
        .containsExactly(toPullo);
    assertThat(log.visibleTo("pullo", 50)).containsExactly(toPullo, fromPullo);
    assertThat(log.visibleTo("vorenus2", 50)).isEmpty();
    assertThat(reply.isVisibleTo("vorenus")).isTrue();
    assertThat(reply.isVisibleTo("pullo")).isFalse();
  }

  @Test
  void caesarAndLegatusSeeEverything() {
    List<Message> all = new ArrayList<>();
    all.add(post("caesar", "one", "vorenus"));
    all.add(post("pullo", "two", "caesar"));
    all.add(post("caesar", "three", "all"));

    assertThat(log.visibleTo("caesar", 50)).containsExactlyElementsOf(all);
    assertThat(log.visibleTo("legatus", 50)).containsExactlyElementsOf(all);
    assertThat(log.history(50)).containsExactlyElementsOf(all);
  }

  @Test
  void queriesReturnTheNewestMessagesInChronologicalOrder() {
    List<Message> all = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      all.add(post("caesar", "m" + i, "vorenus"));
    }
    assertThat(log.history(3)).containsExactlyElementsOf(all.subList(7, 10));
    assertThat(log.visibleTo("vorenus", 3)).containsExactlyElementsOf(all.subList(7, 10));
    assertThat(log.visibleTo("vorenus", 0)).isEmpty();
  }

  @Test
  void boundedWindowReturnsOnlyMessagesStrictlyBetweenTheTwoSequences() {
    List<Message> all = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      all.add(post("caesar", "m" + i, i % 3 == 0 ? "all" : i % 3 == 1 ? "vorenus" : "pullo"));
    }
    long after = all.get(2).sequence();
    long before = all.get(8).sequence();
    // vorenus sees m3 (all), m4 (vorenus), m6 (all), m7 (vorenus): m2 and m8 are the bounds.
    assertThat(log.visibleTo("vorenus", after, before, 50))
        .containsExactly(all.get(3), all.get(4), all.get(6), all.get(7));
    assertThat(log.visibleTo("vorenus", after, before, 2)).containsExactly(all.get(6), all.get(7));
    assertThat(log.visibleTo("legatus", after, before, 50))
        .containsExactlyElementsOf(all.subList(3, 8));
    assertThat(log.visibleTo("vorenus", before, after, 50)).isEmpty();
  }

  /**
   * The seed system over-fetched limit*5 rows and filtered them in memory; with many agents that
   * returned short histories. Every query here must return exactly what a full scan would, with the
   * whole visibility rule ({@link Message#isVisibleTo}: audience, {@code all}, sender).
   */
  @Test
  void visibleToReturnsExactlyTheNewestVisibleMessagesAmongManyAgents() {
    Random random = new Random(7);
    List<String> agents = IntStream.range(0, 50).mapToObj(i -> "agent" + i).toList();
    List<NewMessage> batch = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      int kind = random.nextInt(100);
      Audience audience =
          kind < 50
              ? Audience.of(random.nextBoolean() ? "legatus" : "caesar")
              : kind < 97 ? Audience.of(agents.get(random.nextInt(50))) : Audience.ALL;
      // A third of the messages come from an agent, mostly to someone else (its replies).
      int from = random.nextInt(150);
      String sender = from < 50 ? "caesar" : from < 100 ? "legatus" : agents.get(from - 100);
      batch.add(NewMessage.of(sender, audience, "m" + i));
      if (batch.size() == 500) {
        log.appendAll(batch);
        batch.clear();
      }
    }
    List<Message> everything = log.history(100_000);
    assertThat(everything).hasSize(3000);
    long seenOnlyAsSender = 0;
    for (String agent : agents) {
      // The rule written out: addressed to the agent or to all, or sent by it.
      List<Message> expected =
          everything.stream()
              .filter(
                  m ->
                      m.audience().isAll()
                          || m.audience().names().contains(agent)
                          || m.sender().equals(agent))
              .toList();
      assertThat(expected).allMatch(m -> m.isVisibleTo(agent));
      seenOnlyAsSender +=
          expected.stream()
              .filter(m -> !m.audience().isAll() && !m.audience().names().contains(agent))
              .count();
      assertThat(log.visibleTo(agent, 50))
          .as(agent)
          .containsExactlyElementsOf(
              expected.subList(Math.max(0, expected.size() - 50), expected.size()));
      long middle = everything.get(1500).sequence();
      List<Message> after = expected.stream().filter(m -> m.sequence() > middle).toList();
      assertThat(log.visibleTo(agent, middle, 10))
          .as(agent + " after " + middle)
          .containsExactlyElementsOf(after.subList(Math.max(0, after.size() - 10), after.size()));
      long early = everything.get(700).sequence();
      List<Message> between =
          expected.stream().filter(m -> m.sequence() > early && m.sequence() < middle).toList();
      assertThat(log.visibleTo(agent, early, middle, 10))
          .as(agent + " between " + early + " and " + middle)
          .containsExactlyElementsOf(
              between.subList(Math.max(0, between.size() - 10), between.size()));
    }
    assertThat(seenOnlyAsSender)
        .as("messages an agent sees only because it sent them")
        .isPositive();
  }

  @Test
  void readingAfterTheLastSeenSequenceGivesEachMessageExactlyOnceWhenTimestampsTie() {
    // The clock never moves: every message has the same timestamp.
    long lastSeen = 0;
    List<UUID> seen = new ArrayList<>();
    List<UUID> posted = new ArrayList<>();
    for (int round = 0; round < 100; round++) {
      for (int i = 0; i < round % 4; i++) {
        posted.add(post("caesar", "r" + round + "." + i, "vorenus").id());
        post("caesar", "not for vorenus", "pullo");
      }
      List<Message> fresh = log.visibleTo("vorenus", lastSeen, 50);
      fresh.forEach(m -> seen.add(m.id()));
      if (!fresh.isEmpty()) {
        lastSeen = fresh.get(fresh.size() - 1).sequence();
      }
    }
    assertThat(seen).containsExactlyElementsOf(posted);
  }

  @Test
  void threadReturnsAncestorsAndReplies() {
    Message root = post("caesar", "root", "legatus");
    Message reply =
        log.append(NewMessage.of("legatus", Audience.of("caesar"), "reply").replyingTo(root.id()));
    Message other = post("caesar", "unrelated", "legatus");
    Message child =
        log.append(NewMessage.of("caesar", Audience.of("vorenus"), "child").replyingTo(reply.id()));
    Message grandchild =
        log.append(
            NewMessage.of("vorenus", Audience.of("caesar"), "grandchild").replyingTo(child.id()));
    Message sibling =
        log.append(NewMessage.of("pullo", Audience.of("caesar"), "sibling").replyingTo(reply.id()));

    MessageThread thread = log.thread(child.id());
    assertThat(thread.ancestors()).containsExactly(root, reply);
    assertThat(thread.message()).isEqualTo(child);
    assertThat(thread.replies()).containsExactly(grandchild);

    assertThat(log.thread(root.id()).replies()).containsExactly(reply, child, grandchild, sibling);
    assertThat(log.thread(other.id()).all()).containsExactly(other);
    assertThatThrownBy(() -> log.thread(UUID.randomUUID()))
        .isInstanceOf(InvalidMessageException.class)
        .hasMessageContaining("no message with id");
  }

  @Test
  void refusesBadMessagesWithClearErrorsAndWritesNothing() {
    post("caesar", "keep me", "legatus");
    long before = log.size();

    assertThatThrownBy(() -> post("", "x", "legatus")).hasMessageContaining("sender is empty");
    assertThatThrownBy(() -> post("Caesar!", "x", "legatus"))
        .hasMessageContaining("sender 'Caesar!' is not a valid name");
    assertThatThrownBy(() -> post("caesar", "x", "../etc"))
        .hasMessageContaining("audience name '../etc' is not a valid name");
    assertThatThrownBy(() -> log.append(NewMessage.of("caesar", Audience.of(List.of()), "x")))
        .hasMessageContaining("audience is empty");
    assertThatThrownBy(() -> post("all", "x", "legatus"))
        .hasMessageContaining("'all' is an audience");
    assertThatThrownBy(
            () ->
                log.append(
                    NewMessage.of("caesar", Audience.of("legatus"), "x")
                        .replyingTo(UUID.fromString("00000000-0000-0000-0000-000000000001"))))
        .isInstanceOf(InvalidMessageException.class)
        .hasMessageContaining("reply_to 00000000-0000-0000-0000-000000000001 names no message");
    assertThatThrownBy(() -> post("caesar", "x".repeat((int) MAX_TEXT_BYTES + 1), "legatus"))
        .hasMessageContaining("4097 bytes, more than the maximum of 4096");
    // 1366 three-byte characters are 4098 bytes: the limit is on UTF-8 bytes, not characters.
    assertThatThrownBy(() -> post("caesar", "€".repeat(1366), "legatus"))
        .hasMessageContaining("4098 bytes");
    assertThatThrownBy(() -> post("caesar", "a\u0000b", "legatus"))
        .hasMessageContaining("NUL character (U+0000) at index 1");
    assertThatThrownBy(() -> post("caesar", "a\uD800b", "legatus"))
        .hasMessageContaining("unpaired surrogate (U+D800) at index 1");
    assertThatThrownBy(() -> log.visibleTo("vorenus", -1)).hasMessageContaining("out of range");
    assertThatThrownBy(() -> log.visibleTo("all", 5)).hasMessageContaining("not a viewer");

    assertThat(log.size()).isEqualTo(before);
    assertThat(post("caesar", "€".repeat(1365), "legatus").text()).hasSize(1365);
  }

  @Test
  void appendAllWritesEverythingOrNothing() {
    Message parent = post("caesar", "parent", "legatus");
    List<NewMessage> batch =
        List.of(
            NewMessage.of("legatus", Audience.of("caesar"), "good").replyingTo(parent.id()),
            NewMessage.of("legatus", Audience.of("caesar"), "bad").replyingTo(UUID.randomUUID()));
    assertThatThrownBy(() -> log.appendAll(batch)).isInstanceOf(InvalidMessageException.class);
    assertThat(log.size()).isEqualTo(1);
  }

  @Test
  void appendedSinceOpenCountsTheCommittedAppendsNotTheRefusedOnesNorImports() {
    Message parent = post("caesar", "parent", "legatus");
    log.appendAll(
        List.of(
            NewMessage.of("legatus", Audience.of("caesar"), "one").replyingTo(parent.id()),
            NewMessage.of("legatus", Audience.of("caesar"), "two")));
    assertThatThrownBy(
            () ->
                log.appendAll(
                    List.of(
                        NewMessage.of("legatus", Audience.of("caesar"), "good"),
                        NewMessage.of("legatus", Audience.of("caesar"), "bad")
                            .replyingTo(UUID.randomUUID()))))
        .isInstanceOf(InvalidMessageException.class);
    log.importMessages(
        List.of(
            new Message(
                0,
                UUID.randomUUID(),
                "caesar",
                "imported",
                Audience.ALL,
                Instant.parse("2025-01-01T00:00:00Z"),
                null)));

    assertThat(log.appendedSinceOpen()).isEqualTo(3);
    assertThat(log.size()).isEqualTo(4);
  }

  @Test
  void concurrentAppendsAreAllCommittedInOneStrictSequence() throws Exception {
    int writers = 8;
    int each = 250;
    ConcurrentLinkedQueue<Message> stored = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    try (ExecutorService pool = Executors.newFixedThreadPool(writers)) {
      List<Future<List<Long>>> results = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        String agent = "agent" + w;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  List<Long> mine = new ArrayList<>();
                  for (int i = 0; i < each; i++) {
                    Message m = post(agent, "n" + i, "caesar");
                    stored.add(m);
                    mine.add(m.sequence());
                  }
                  return mine;
                }));
      }
      start.countDown();
      for (Future<List<Long>> result : results) {
        List<Long> mine = result.get();
        assertThat(mine).isSorted().doesNotHaveDuplicates();
      }
    }
    assertThat(log.size()).isEqualTo(writers * each);
    List<Long> sequences = new ArrayList<>(stored.stream().map(Message::sequence).toList());
    Collections.sort(sequences);
    assertThat(sequences).doesNotHaveDuplicates();
    assertThat(log.history(writers * each))
        .extracting(Message::sequence)
        .containsExactlyElementsOf(sequences);
  }

  @Test
  void oneBadRequestAmongConcurrentAppendsFailsAloneTheOthersCommit() throws Exception {
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      List<Future<Message>> good = new ArrayList<>();
      List<Future<Message>> bad = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        int n = i;
        good.add(pool.submit(() -> post("caesar", "good" + n, "vorenus")));
        if (i % 20 == 0) {
          bad.add(
              pool.submit(
                  () ->
                      log.append(
                          NewMessage.of("caesar", Audience.of("vorenus"), "orphan")
                              .replyingTo(UUID.randomUUID()))));
        }
      }
      for (Future<Message> f : good) {
        assertThat(f.get().text()).startsWith("good");
      }
      for (Future<Message> f : bad) {
        assertThatThrownBy(f::get).hasCauseInstanceOf(InvalidMessageException.class);
      }
    }
    assertThat(log.size()).isEqualTo(200);
  }

  @Test
  void pruneRemovesOldMessagesButKeepsParentsOfNewerReplies() {
    Message oldLonely = post("caesar", "old and alone", "legatus");
    Message oldRoot = post("caesar", "old root", "legatus");
    Message oldReply =
        log.append(
            NewMessage.of("legatus", Audience.of("caesar"), "old reply").replyingTo(oldRoot.id()));
    Message oldDeadBranch =
        log.append(
            NewMessage.of("caesar", Audience.of("legatus"), "old, replies to nothing new")
                .replyingTo(oldLonely.id()));
    clock.advance(Duration.ofDays(100));
    Message newReply =
        log.append(
            NewMessage.of("caesar", Audience.of("legatus"), "new reply to old")
                .replyingTo(oldReply.id()));
    Message fresh = post("caesar", "fresh", "vorenus");

    PruneResult result = log.prune(clock.instant().minus(Duration.ofDays(30)));

    assertThat(result.removed()).containsExactly(oldLonely, oldDeadBranch);
    assertThat(result.keptAsAncestors()).isEqualTo(2);
    assertThat(log.history(100)).containsExactly(oldRoot, oldReply, newReply, fresh);
    assertThat(log.thread(newReply.id()).ancestors()).containsExactly(oldRoot, oldReply);
    assertThat(log.visibleTo("vorenus", 10)).containsExactly(fresh);
  }

  @Test
  void pruneHandsMessagesToTheArchiveAndDeletesNothingIfArchivingFails() {
    Message old = post("caesar", "old", "legatus");
    clock.advance(Duration.ofDays(10));
    Instant cutoff = clock.instant().minus(Duration.ofDays(1));

    assertThatThrownBy(
            () ->
                log.prune(
                    cutoff,
                    removed -> {
                      throw new java.io.IOException("disk full");
                    }))
        .isInstanceOf(MessageLogException.class)
        .hasMessageContaining("none were removed")
        .hasMessageContaining("disk full");
    assertThat(log.history(10)).containsExactly(old);

    List<Message> archived = new ArrayList<>();
    log.prune(cutoff, archived::addAll);
    assertThat(archived).containsExactly(old);
    assertThat(log.size()).isZero();
  }

  @Test
  void importCopiesMessagesIdempotentlyAndUnlinksMissingParents() {
    Instant t = Instant.parse("2025-01-01T00:00:00.123456Z");
    Message a = new Message(0, UUID.randomUUID(), "caesar", "a", Audience.of("legatus"), t, null);
    Message b = new Message(0, UUID.randomUUID(), "legatus", "b", Audience.of("caesar"), t, a.id());
    Message orphan =
        new Message(
            0, UUID.randomUUID(), "vorenus", "c", Audience.of("caesar"), t, UUID.randomUUID());

    assertThat(log.importMessages(List.of(a, b, orphan))).isEqualTo(new ImportResult(3, 0, 1));
    assertThat(log.importMessages(List.of(a, b, orphan))).isEqualTo(new ImportResult(0, 3, 0));

    Message withNul =
        new Message(0, UUID.randomUUID(), "caesar", "a\u0000b", Audience.ALL, t, null);
    assertThatThrownBy(() -> log.importMessages(List.of(withNul)))
        .isInstanceOf(InvalidMessageException.class)
        .hasMessageContaining("message " + withNul.id() + " cannot be imported")
        .hasMessageContaining("NUL character");

    List<Message> stored = log.history(10);
    assertThat(stored).extracting(Message::id).containsExactly(a.id(), b.id(), orphan.id());
    assertThat(stored.get(1).replyTo()).isEqualTo(a.id());
    assertThat(stored.get(1).timestamp()).isEqualTo(t);
    assertThat(stored.get(2).replyTo()).isNull();
  }

  @Test
  void messagesSurviveClosingAndReopening() {
    Message m = post("caesar", "remember me", "pullo");
    log.close();
    log = open(clock, MAX_TEXT_BYTES);
    assertThat(log.visibleTo("pullo", 5)).containsExactly(m);
    Message next = post("caesar", "and me", "pullo");
    assertThat(next.sequence()).isGreaterThan(m.sequence());
  }

  @Test
  void anAudienceNamingAllIsEveryone() {
    Message m = post("caesar", "hear ye", "vorenus", "all");
    assertThat(m.audience()).isEqualTo(Audience.ALL);
    assertThat(log.visibleTo("pullo", 5)).containsExactly(m);
    assertThat(log.find(m.id()).orElseThrow().audience().names()).isEqualTo(Set.of("all"));
  }
}
