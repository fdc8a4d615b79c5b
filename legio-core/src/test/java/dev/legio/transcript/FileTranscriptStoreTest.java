package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.testing.ForcedFiles;
import dev.legio.testing.MutableClock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTranscriptStoreTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ID = "0b1c2d3e-4f50-4617-8a9b-0c1d2e3f4a5b";

  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-04-03T10:00:00Z");

  private Path cwd() {
    return dir.resolve("my project.v2");
  }

  private FileTranscriptStore store() {
    return new FileTranscriptStore(dir.resolve("projects"), cwd(), clock);
  }

  private FileTranscriptStore small(long part, long total) {
    return new FileTranscriptStore(dir.resolve("projects"), cwd(), clock, part, total);
  }

  private static List<String> lines(Path file) throws Exception {
    return Files.readAllLines(file, StandardCharsets.UTF_8);
  }

  private static List<String> texts(Transcript t) {
    return t.entries().stream().map(TranscriptEntry::text).toList();
  }

  @Test
  void nodesWithOtherWorkspacePathsSharingTheFolderUnderOneProjectNameWriteOneTranscript() {
    Path shared = dir.resolve("mount/transcripts");
    FileTranscriptStore nodeA =
        new FileTranscriptStore(shared, dir.resolve("srv/a/legion"), "legion", clock);
    FileTranscriptStore nodeB =
        new FileTranscriptStore(shared, dir.resolve("opt/b/legion"), "legion", clock);
    NewEntry.Message first = NewEntry.user(null, "first, on a");
    nodeA.append(ID, List.of(NewEntry.agentName("vorenus"), first));
    NewEntry.Message second = NewEntry.user(first.uuid(), "second, on b");
    nodeB.append(ID, List.of(second));

    assertThat(nodeA.file(ID)).isEqualTo(shared.resolve("legion").resolve(ID + ".jsonl"));
    assertThat(texts(nodeA.load(ID))).containsExactly("first, on a", "second, on b");
    assertThat(texts(nodeB.load(ID))).containsExactly("first, on a", "second, on b");
  }

  @Test
  void transcriptsAndTheFoldersTheStoreCreatesAreTheOwnersOnly() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
    FileTranscriptStore store = small(400, 100_000);
    for (int i = 0; i < 6; i++) {
      store.append(ID, List.of(NewEntry.user(null, "a line long enough to fill parts " + i)));
    }
    Path folder = store.file(ID).getParent();
    try (Stream<Path> files = Files.list(folder)) {
      List<Path> parts = files.filter(p -> p.toString().endsWith(".jsonl")).toList();
      assertThat(parts).hasSizeGreaterThan(1); // _part2 and on, too
      for (Path part : parts) {
        assertThat(permissions(part)).as(part.toString()).isEqualTo("rw-------");
      }
    }
    assertThat(permissions(folder)).isEqualTo("rwx------");
    assertThat(permissions(dir.resolve("projects"))).isEqualTo("rwx------");
  }

  @Test
  void aTranscriptsFolderThatExistsKeepsItsPermissions() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
    Path projects = Files.createDirectories(dir.resolve("projects"));
    Files.setPosixFilePermissions(
        projects, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    store().append(ID, List.of(NewEntry.user(null, "hello")));
    assertThat(permissions(projects)).isEqualTo("rwxr-xr-x");
    assertThat(permissions(store().file(ID))).isEqualTo("rw-------");
  }

  private static String permissions(Path p) throws Exception {
    return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void writesClaudeCodeLinesAtTheSanitisedFolder() throws Exception {
    FileTranscriptStore store = store();
    NewEntry.Message user = NewEntry.user(null, "fix the tests");
    NewEntry.Message reply = NewEntry.assistant(user.uuid(), "I'll fix those tests.", "model-x");
    store.append(ID, List.of(NewEntry.agentName("vorenus"), user, reply));

    String folder = cwd().toAbsolutePath().toString().replaceAll("[^A-Za-z0-9]", "-");
    Path file = dir.resolve("projects").resolve(folder).resolve(ID + ".jsonl");
    assertThat(store.file(ID)).isEqualTo(file);
    assertThat(folder).endsWith("-my-project-v2").startsWith("-");
    List<String> lines = lines(file);
    assertThat(lines).hasSize(3);
    JsonNode agent = JSON.readTree(lines.get(0));
    assertThat(agent.get("type").asText()).isEqualTo("agent-name");
    assertThat(agent.get("agentName").asText()).isEqualTo("vorenus");
    JsonNode first = JSON.readTree(lines.get(1));
    assertThat(first.get("type").asText()).isEqualTo("user");
    assertThat(first.get("uuid").asText()).isEqualTo(user.uuid().toString());
    assertThat(first.get("parentUuid").isNull()).isTrue();
    assertThat(first.get("sessionId").asText()).isEqualTo(ID);
    assertThat(first.get("cwd").asText()).isEqualTo(cwd().toAbsolutePath().toString());
    assertThat(first.get("timestamp").asText()).isEqualTo("2026-04-03T10:00:00.000Z");
    assertThat(first.get("isSidechain").asBoolean(true)).isFalse();
    assertThat(first.get("userType").asText()).isEqualTo("external");
    assertThat(first.get("version").asText()).isEqualTo("legio");
    assertThat(first.at("/message/role").asText()).isEqualTo("user");
    assertThat(first.at("/message/content").asText()).isEqualTo("fix the tests");
    JsonNode second = JSON.readTree(lines.get(2));
    assertThat(second.get("parentUuid").asText()).isEqualTo(user.uuid().toString());
    assertThat(second.at("/message/content/0/type").asText()).isEqualTo("text");
    assertThat(second.at("/message/content/0/text").asText()).isEqualTo("I'll fix those tests.");

    Transcript loaded = store.load(ID);
    assertThat(loaded.owner()).isEqualTo("vorenus");
    assertThat(loaded.entries())
        .extracting(TranscriptEntry::type, TranscriptEntry::uuid, TranscriptEntry::parentUuid)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("user", user.uuid().toString(), null),
            org.assertj.core.groups.Tuple.tuple(
                "assistant", reply.uuid().toString(), user.uuid().toString()));
    assertThat(texts(loaded)).containsExactly("fix the tests", "I'll fix those tests.");
    assertThat(loaded.entries().get(1).role()).isEqualTo("assistant");
    assertThat(loaded.entries().get(0).timestamp()).isEqualTo(clock.instant());
    assertThat(loaded.report().metadata()).isEqualTo(1);
    assertThat(loaded.report().hasProblems()).isFalse();
    assertThat(loaded.lastUuid()).isEqualTo(reply.uuid().toString());
  }

  @Test
  void tombstonedMessagesAreLeftOutAndSummariesIncluded() {
    FileTranscriptStore store = store();
    NewEntry.Message a = NewEntry.user(null, "a");
    NewEntry.Message b = NewEntry.assistant(a.uuid(), "b", null);
    NewEntry.Message c = NewEntry.user(b.uuid(), "c");
    store.append(ID, List.of(a, b, c));
    store.append(ID, List.of(NewEntry.tombstone(b.uuid())));
    store.append(ID, List.of(NewEntry.summary(c.uuid(), "a and c were said", 2)));

    Transcript t = store.load(ID);
    assertThat(texts(t)).containsExactly("a", "c", "a and c were said");
    TranscriptEntry summary = t.entries().get(2);
    assertThat(summary.isSummary()).isTrue();
    assertThat(summary.messagesCompacted()).isEqualTo(2);
    assertThat(summary.role()).isEqualTo("summary");
    assertThat(t.report().tombstones()).isEqualTo(1);
    assertThat(t.report().tombstoned()).isEqualTo(1);
  }

  @Test
  void anAppendOfTombstonesIsForcedToDiskWithTheFolderOfAPartItStarts() throws Exception {
    FileTranscriptStore store = store();
    NewEntry.Message a = NewEntry.user(null, "a");
    NewEntry.Message b = NewEntry.user(a.uuid(), "b");
    Path first = store.file(ID).toAbsolutePath();
    Path folder = first.getParent();

    List<Path> turns = ForcedFiles.during(() -> store.append(ID, List.of(a, b)));
    List<Path> inThePart =
        ForcedFiles.during(() -> store.append(ID, List.of(NewEntry.tombstone(a.uuid()))));
    // A store whose parts end here: the next tombstone starts part 2.
    FileTranscriptStore full = small(Files.size(first) + 10, 100_000);
    List<Path> inANewPart =
        ForcedFiles.during(() -> full.append(ID, List.of(NewEntry.tombstone(b.uuid()))));

    assertThat(turns).doesNotContain(first, folder);
    assertThat(inThePart).contains(first).doesNotContain(folder);
    assertThat(full.parts(ID)).hasSize(2);
    assertThat(inANewPart).contains(full.parts(ID).get(1).toAbsolutePath(), folder);
    assertThat(store.load(ID).entries()).isEmpty();
  }

  @Test
  void aTombstoneWrittenBeforeItsMessageStillApplies() throws Exception {
    FileTranscriptStore store = store();
    NewEntry.Message late = NewEntry.user(null, "late");
    store.append(ID, List.of(NewEntry.tombstone(late.uuid()), NewEntry.user(null, "kept")));
    store.append(ID, List.of(late));
    assertThat(texts(store.load(ID))).containsExactly("kept");
  }

  @Test
  void unknownTypesAndMalformedLinesAreSkippedAndCounted() throws Exception {
    FileTranscriptStore store = store();
    store.append(ID, List.of(NewEntry.user(null, "first")));
    Files.writeString(
        store.file(ID),
        String.join(
            "\n",
            "{\"type\":\"hologram\",\"uuid\":\"u1\"}",
            "{\"type\":\"hologram\"}",
            "{\"uuid\":\"no type\"}",
            "",
            "not json at all",
            "{\"type\":\"user\",\"uuid\":\"cut\",\"message\":{\"content\":\"half",
            "[1,2,3]",
            "{\"type\":\"user\",\"uuid\":\"two\"}{\"type\":\"user\",\"uuid\":\"on one line\"}",
            "{\"type\":\"user\",",
            "  \"uuid\":\"spread over lines\"}",
            "{\"type\":\"queue-operation\",\"operation\":\"enqueue\"}",
            "{\"type\":\"user\",\"uuid\":\"fine\",\"message\":{\"role\":\"user\",\"content\":\"ok\"}}",
            ""),
        StandardOpenOption.APPEND);
    store.append(ID, List.of(NewEntry.user(null, "last")));

    Transcript t = store.load(ID);
    assertThat(texts(t)).containsExactly("first", "ok", "last");
    LoadReport r = t.report();
    assertThat(r.unknownTypes()).isEqualTo(Map.of("hologram", 2, "(no type)", 1));
    assertThat(r.unknownLines()).isEqualTo(3);
    // not json, cut, the array, two on one line, the first line of the spread one, its second
    assertThat(r.malformedLines()).isEqualTo(6);
    assertThat(r.metadata()).isEqualTo(1);
    assertThat(r.partialLastLine()).isFalse();
    assertThat(r.problems()).contains("6 malformed", "3 line(s) of unknown types");
  }

  @Test
  void aPartialLastLineIsSkippedAndTheNextAppendStartsOnAFreshLine() throws Exception {
    FileTranscriptStore store = store();
    store.append(ID, List.of(NewEntry.user(null, "before the crash")));
    Files.writeString(
        store.file(ID), "{\"type\":\"user\",\"uuid\":\"x\",\"mess", StandardOpenOption.APPEND);

    Transcript crashed = store.load(ID);
    assertThat(texts(crashed)).containsExactly("before the crash");
    assertThat(crashed.report().partialLastLine()).isTrue();
    assertThat(crashed.report().malformedLines()).isZero();

    // A complete object with no newline yet (a write in progress) is partial too.
    Path other = store.file("other");
    Files.createDirectories(other.getParent());
    Files.writeString(other, "{\"type\":\"user\",\"uuid\":\"y\"}");
    assertThat(store.load("other").entries()).isEmpty();
    assertThat(store.load("other").report().partialLastLine()).isTrue();

    store.append(ID, List.of(NewEntry.user(null, "after the crash")));
    Transcript after = store.load(ID);
    assertThat(texts(after)).containsExactly("before the crash", "after the crash");
    assertThat(after.report().partialLastLine()).isFalse();
    assertThat(after.report().malformedLines()).isEqualTo(1); // the cut line, now on its own
    assertThat(lines(store.file(ID))).hasSize(3);
  }

  @Test
  void writesRollOverToPartsAndLoadingStitchesThemInOrder() throws Exception {
    FileTranscriptStore store = small(2_000, 100_000);
    List<NewEntry.Message> written = new ArrayList<>();
    UUID parent = null;
    for (int i = 0; i < 30; i++) {
      NewEntry.Message m = NewEntry.user(parent, "message " + i + " " + "y".repeat(100));
      written.add(m);
      store.append(ID, List.of(m));
      parent = m.uuid();
    }
    List<Path> parts = store.parts(ID);
    assertThat(parts.size()).isGreaterThan(3);
    assertThat(parts.get(1).getFileName().toString()).isEqualTo(ID + "_part2.jsonl");
    assertThat(parts.get(2).getFileName().toString()).isEqualTo(ID + "_part3.jsonl");
    for (Path p : parts) {
      assertThat(Files.size(p)).isLessThanOrEqualTo(2_000);
      assertThat(Files.readString(p)).endsWith("\n");
    }

    // A tombstone in the last part removes a message of the first.
    store.append(ID, List.of(NewEntry.tombstone(written.get(0).uuid())));
    Transcript t = store.load(ID);
    assertThat(t.entries())
        .extracting(TranscriptEntry::uuid)
        .containsExactlyElementsOf(written.stream().skip(1).map(m -> m.uuid().toString()).toList());
    assertThat(t.report().parts()).isEqualTo(store.parts(ID).size());

    TranscriptInfo info = store.info(ID);
    assertThat(info.parts()).isEqualTo(store.parts(ID).size());
    long size = 0;
    for (Path p : store.parts(ID)) {
      size += Files.size(p);
    }
    assertThat(info.bytes()).isEqualTo(size);
    assertThat(info.messages()).isEqualTo(29);

    assertThat(store.delete(ID)).isEqualTo(info.parts());
    try (Stream<Path> left = Files.list(store.folder())) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aCreatedTranscriptIsWrittenWholeInPartsAsAppendsWouldCutThemAndNeverOverAnother()
      throws Exception {
    FileTranscriptStore store = small(2_000, 100_000);
    List<NewEntry.Message> written = new ArrayList<>();
    UUID parent = null;
    for (int i = 0; i < 30; i++) {
      NewEntry.Message m = NewEntry.user(parent, "message " + i + " " + "y".repeat(100));
      written.add(m);
      parent = m.uuid();
    }

    store.create(ID, written);

    List<Path> parts = store.parts(ID);
    assertThat(parts.size()).isGreaterThan(3);
    for (Path p : parts) {
      assertThat(Files.size(p)).isLessThanOrEqualTo(2_000);
      assertThat(Files.readString(p)).endsWith("\n");
    }
    assertThat(store.load(ID).entries())
        .extracting(TranscriptEntry::uuid)
        .containsExactlyElementsOf(written.stream().map(m -> m.uuid().toString()).toList());
    // No temporary file is left beside the parts.
    try (Stream<Path> files = Files.list(store.folder())) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .allMatch(n -> n.endsWith(".jsonl") || n.endsWith(".lock"));
    }
    String before = Files.readString(parts.get(0));
    assertThatThrownBy(() -> store.create(ID, List.of(NewEntry.user(null, "over it"))))
        .isInstanceOf(TranscriptException.class)
        .hasMessageContaining("has a transcript already");
    assertThat(Files.readString(parts.get(0))).isEqualTo(before);
    assertThatThrownBy(() -> small(2_000, 3_000).create("other", written))
        .isInstanceOf(TranscriptFullException.class);
    assertThat(store.parts("other")).isEmpty();
  }

  @Test
  void anAppendPastTheTotalLimitFailsAndWritesNothing() throws Exception {
    FileTranscriptStore store = small(1_000, 3_000);
    int written = 0;
    try {
      while (true) {
        store.append(ID, List.of(NewEntry.user(null, "z".repeat(200))));
        written++;
      }
    } catch (TranscriptFullException e) {
      assertThat(e.getMessage()).contains(ID, "3000 bytes", "nothing was written");
    }
    long before = store.info(ID).bytes();
    assertThat(before).isLessThanOrEqualTo(3_000);
    assertThatThrownBy(
            () ->
                store.append(
                    ID, List.of(NewEntry.user(null, "a"), NewEntry.user(null, "z".repeat(600)))))
        .isInstanceOf(TranscriptFullException.class);
    assertThat(store.info(ID).bytes()).isEqualTo(before);
    assertThat(store.load(ID).entries()).hasSize(written);

    assertThatThrownBy(() -> store.append("big", List.of(NewEntry.user(null, "q".repeat(2_000)))))
        .isInstanceOf(TranscriptException.class)
        .hasMessageContaining("larger than a transcript part may be");
  }

  @Test
  void listingShowsEachSessionOnceWithOwnerCountsAndSize() throws Exception {
    FileTranscriptStore store = small(1_500, 100_000);
    store.append("s-one", List.of(NewEntry.agentName("vorenus")));
    for (int i = 0; i < 12; i++) {
      store.append("s-one", List.of(NewEntry.user(null, "w".repeat(200))));
    }
    clock.advance(Duration.ofHours(1));
    store.append("s-two", List.of(NewEntry.user(null, "hello")));
    Files.writeString(store.folder().resolve("notes.txt"), "not a transcript");

    List<TranscriptInfo> infos = store.list();
    assertThat(infos)
        .extracting(TranscriptInfo::sessionId)
        .containsExactlyInAnyOrder("s-one", "s-two");
    TranscriptInfo one =
        infos.stream().filter(i -> i.sessionId().equals("s-one")).findFirst().orElseThrow();
    assertThat(one.owner()).isEqualTo("vorenus");
    assertThat(one.messages()).isEqualTo(12);
    assertThat(one.parts()).isGreaterThan(1);
    assertThat(one.created()).isEqualTo(Instant.parse("2026-04-03T10:00:00Z"));
    TranscriptInfo two =
        infos.stream().filter(i -> i.sessionId().equals("s-two")).findFirst().orElseThrow();
    assertThat(two.owner()).isNull();
    assertThat(two.created()).isEqualTo(Instant.parse("2026-04-03T11:00:00Z"));
  }

  @Test
  void pruneDeletesSessionsUnchangedSinceTheCutoff() throws Exception {
    FileTranscriptStore store = small(500, 100_000);
    for (int i = 0; i < 5; i++) {
      store.append("old", List.of(NewEntry.user(null, "o".repeat(200))));
    }
    store.append("new", List.of(NewEntry.user(null, "n")));
    Instant now = Instant.now();
    for (Path p : store.parts("old")) {
      Files.setLastModifiedTime(
          p, java.nio.file.attribute.FileTime.from(now.minus(Duration.ofDays(40))));
    }
    assertThat(store.prune(now.minus(Duration.ofDays(30))))
        .extracting(TranscriptInfo::sessionId)
        .containsExactly("old");
    assertThat(store.parts("old")).isEmpty();
    assertThat(store.list()).extracting(TranscriptInfo::sessionId).containsExactly("new");
  }

  @Test
  void sessionIdsThatCouldEscapeTheFolderAreRefused() {
    FileTranscriptStore store = store();
    for (String bad :
        List.of("", "../etc", "a/b", "a\\b", "..", ".hidden", "a..b", "x_part2", "a b", "ü")) {
      assertThatThrownBy(() -> store.append(bad, List.of(NewEntry.user(null, "x"))))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("session id");
      assertThatThrownBy(() -> store.load(bad)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.delete(bad)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(FileTranscriptStore.checkId("agent-1_x.y")).isEqualTo("agent-1_x.y");
    assertThatThrownBy(() -> store.load("missing"))
        .isInstanceOf(TranscriptException.class)
        .hasMessageContaining("no transcript for session missing");
  }

  @Test
  void largeTranscriptsAreScannedInChunksInOrder() {
    FileTranscriptStore store = small(3_000_000, 100_000_000);
    List<String> expected = new ArrayList<>();
    List<NewEntry> batch = new ArrayList<>();
    NewEntry.Message first = null;
    for (int i = 0; i < 12_000; i++) {
      NewEntry.Message m = NewEntry.user(null, "line " + i + " " + "é\"\\\n".repeat(200));
      if (first == null) {
        first = m;
      }
      batch.add(m);
      if (i > 0) {
        expected.add("line " + i + " ");
      }
      if (batch.size() == 1000) {
        store.append(ID, batch);
        batch = new ArrayList<>();
      }
    }
    store.append(ID, List.of(NewEntry.tombstone(first.uuid())));
    Transcript t = store.load(ID);
    assertThat(t.report().bytes()).isGreaterThan(2L * TranscriptScanner.CHUNK_BYTES);
    assertThat(t.report().parts()).isGreaterThan(1);
    assertThat(t.entries()).hasSize(11_999);
    for (int i = 0; i < expected.size(); i += 997) {
      assertThat(t.entries().get(i).text()).startsWith(expected.get(i));
    }
    assertThat(t.report().hasProblems()).isFalse();
  }

  @Test
  void threadsAppendingAtOnceNeverInterleaveLines() throws Exception {
    FileTranscriptStore store = small(40_000, 100_000_000);
    int threads = 8;
    int each = 200;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String tag = "t" + t;
      // Each thread its own store object, as separate parts of Legio would have.
      FileTranscriptStore own = small(40_000, 100_000_000);
      done.add(
          pool.submit(
              () -> {
                for (int i = 0; i < each; i++) {
                  own.append(
                      ID, List.of(NewEntry.user(null, tag + " " + i + " " + "p".repeat(150))));
                }
              }));
    }
    for (Future<?> f : done) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertEveryLineParses(store, Map.of("t0", each, "t7", each), threads * each);
  }

  @Test
  void twoProcessesAppendingAtOnceNeverInterleaveLinesNorForkTheChain() throws Exception {
    int each = 1500;
    String java = ProcessHandle.current().info().command().orElse("java");
    List<Process> children = new ArrayList<>();
    for (String tag : List.of("alpha", "beta")) {
      children.add(
          new ProcessBuilder(
                  java,
                  "-cp",
                  System.getProperty("java.class.path"),
                  ConcurrentAppender.class.getName(),
                  dir.resolve("projects").toString(),
                  cwd().toString(),
                  ID,
                  tag,
                  String.valueOf(each),
                  "200000")
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start());
    }
    for (Process child : children) {
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        assertThat(out.readLine()).isEqualTo("ready");
      }
    }
    for (Process child : children) {
      assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).isZero();
    }
    FileTranscriptStore store = small(200_000, Long.MAX_VALUE / 2);
    assertThat(store.parts(ID).size()).isGreaterThan(1);
    assertEveryLineParses(store, Map.of("alpha", each, "beta", each), 2 * each);
    // Each child chained its messages to the tip it read under the lock: one chain, across parts.
    List<TranscriptEntry> entries = store.load(ID).entries();
    assertThat(entries.get(0).parentUuid()).isNull();
    for (int i = 1; i < entries.size(); i++) {
      assertThat(entries.get(i).parentUuid())
          .as("entry %d", i)
          .isEqualTo(entries.get(i - 1).uuid());
    }
  }

  /** Every line of every part is one JSON object, and each writer's messages are all there. */
  private static void assertEveryLineParses(
      FileTranscriptStore store, Map<String, Integer> perTag, int total) throws Exception {
    int lines = 0;
    Map<String, Integer> seen = new HashMap<>();
    for (Path part : store.parts(ID)) {
      String content = Files.readString(part);
      assertThat(content).endsWith("\n");
      for (String line : content.split("\n")) {
        JsonNode node = JSON.readTree(line);
        assertThat(node.get("type").asText()).isEqualTo("user");
        String tag = node.at("/message/content").asText().split(" ")[0];
        seen.merge(tag, 1, Integer::sum);
        lines++;
      }
    }
    assertThat(lines).isEqualTo(total);
    perTag.forEach((tag, n) -> assertThat(seen.get(tag)).as(tag).isEqualTo(n));
    Transcript t = store.load(ID);
    assertThat(t.entries()).hasSize(total);
    assertThat(t.report().hasProblems()).isFalse();
  }
}
