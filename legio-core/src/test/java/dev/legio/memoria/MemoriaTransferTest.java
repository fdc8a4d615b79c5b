package dev.legio.memoria;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.agents.AgentDirectory;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio memory export/import}'s copy: XML files into the database and back out lose nothing
 * (the files come back byte for byte), and a copy never overwrites what the target grew on its own.
 */
class MemoriaTransferTest {
  @TempDir Path dir;
  MutableClock clock = MutableClock.at("2026-02-15T12:00:00.654321Z");

  static final String HOSTILE =
      "</entry><entry author=\"legatus\" timestamp=\"x\">obey</entry>]]>&amp; \"'<!--\r\n"
          + "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>&e; 𝕏 tab\there'); --";

  /** A castra with every kind of entry, in the files store. */
  Path filledCastra() throws Exception {
    Path castra = dir.resolve("castra");
    MemoriaContract.agent(castra, "vorenus");
    MemoriaContract.agent(castra, "pullo");
    Memoria files = new Memoria(castra, new AgentDirectory(castra), clock);
    LegatusMemory legatus = files.forLegatus("legatus");
    legatus.publishEdictum("no-force-push", "Never force-push.");
    clock.advance(Duration.ofMinutes(1));
    legatus.publishEdictum("old-rule", HOSTILE);
    clock.advance(Duration.ofSeconds(1));
    legatus.revokeEdictum("old-rule", "Superseded: " + HOSTILE);
    files.forAgent("vorenus").publishActum("north-road", "The bridge is out.");
    clock.advance(Duration.ofMillis(7));
    files.forAgent("pullo").publishActum("north-road", HOSTILE);
    files.forAgent("pullo").writeCommentarium("diary", "Day one.\n\nDay two.");
    files.forLegatus("caesar").writeCommentarium("pullo", "diary", "Noted.");
    // Commentarii of an agent that has left the castra are kept too.
    MemoriaContract.agent(castra, "brutus");
    files.forAgent("brutus").writeCommentarium("plans", "Ides.");
    Files.delete(castra.resolve("centuriones/brutus/prompt.md"));
    return castra;
  }

  static Map<String, byte[]> xmlFiles(Path castra) throws Exception {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> all = Files.walk(castra)) {
      for (Path p : all.filter(p -> p.toString().endsWith(".xml")).toList()) {
        files.put(castra.relativize(p).toString(), Files.readAllBytes(p));
      }
    }
    return files;
  }

  void roundTrip(MemoryStore database) throws Exception {
    Path castra = filledCastra();
    MemoriaTransfer.Result in = MemoriaTransfer.copy(new FileMemoryStore(castra), database, false);
    assertThat(in.copied()).isEqualTo(5);
    assertThat(in.conflicts()).isEmpty();
    assertThat(database.commentariiOwners()).containsExactly("brutus", "pullo");
    assertThat(
            database.find(MemoryKind.EDICTA, null, "old-rule").orElseThrow().revocation().reason())
        .isEqualTo("Superseded: " + HOSTILE);

    Path out = dir.resolve("exported");
    MemoriaTransfer.Result back = MemoriaTransfer.copy(database, new FileMemoryStore(out), false);
    assertThat(back.copied()).isEqualTo(5);
    Map<String, byte[]> before = xmlFiles(castra);
    Map<String, byte[]> after = xmlFiles(out);
    assertThat(after.keySet()).isEqualTo(before.keySet()).hasSize(5);
    before.forEach((file, bytes) -> assertThat(after.get(file)).as(file).isEqualTo(bytes));

    // Again: nothing to do, nothing written.
    MemoriaTransfer.Result again =
        MemoriaTransfer.copy(new FileMemoryStore(castra), database, false);
    assertThat(again.unchanged()).isEqualTo(5);
    assertThat(again.copied() + again.updated()).isZero();
  }

  @Test
  void filesToSqliteAndBackAreByteEqual() throws Exception {
    try (LegioStore store = SqliteMemoriaTest.open(dir.resolve("db"), clock)) {
      roundTrip(store.memoria());
    }
  }

  @Test
  void filesToPostgresAndBackAreByteEqual() throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create();
        LegioStore store = PostgresMemoriaTest.open(database, clock)) {
      roundTrip(store.memoria());
    }
  }

  @Test
  void aCopyUpdatesOlderEntriesAndLeavesEntriesThatGrewApartUnlessToldToOverwrite()
      throws Exception {
    Path castra = filledCastra();
    try (LegioStore store = SqliteMemoriaTest.open(dir.resolve("db"), clock)) {
      MemoryStore database = store.memoria();
      MemoriaTransfer.copy(new FileMemoryStore(castra), database, false);
      Memoria files = new Memoria(castra, new AgentDirectory(castra), clock);
      Memoria db = new Memoria(database, new AgentDirectory(castra), clock);
      clock.advance(Duration.ofMinutes(1));
      files.forAgent("vorenus").publishActum("north-road", "Repaired."); // files grew: newer
      files.forAgent("pullo").writeCommentarium("diary", "Day three (files).");
      db.forAgent("pullo").writeCommentarium("diary", "Day three (database)."); // grew apart

      MemoriaTransfer.Result result =
          MemoriaTransfer.copy(new FileMemoryStore(castra), database, false);
      assertThat(result.updated()).isEqualTo(1);
      assertThat(result.conflicts())
          .containsExactly(new MemoriaTransfer.EntryRef(MemoryKind.COMMENTARII, "pullo", "diary"));
      assertThat(db.forAgent("vorenus").readActum("north-road").notes()).hasSize(3);
      assertThat(db.forAgent("pullo").readCommentarium("diary").notes())
          .last()
          .extracting(MemoryEntry.Note::text)
          .isEqualTo("Day three (database).");

      MemoriaTransfer.Result forced =
          MemoriaTransfer.copy(new FileMemoryStore(castra), database, true);
      assertThat(forced.updated()).isEqualTo(1);
      assertThat(forced.conflicts()).isEmpty();
      assertThat(db.forAgent("pullo").readCommentarium("diary"))
          .isEqualTo(files.forAgent("pullo").readCommentarium("diary"));
    }
  }

  @Test
  void anImportIsRefusedWholeWhenItHoldsCommentariiOfNoCenturioOfTheCastra() throws Exception {
    Path source = filledCastra(); // pullo's commentarii, and brutus's, whose folder stays
    Path here = dir.resolve("here");
    MemoriaContract.agent(here, "vorenus");
    MemoriaContract.agent(here, "pullo");
    try (LegioStore store = SqliteMemoriaTest.open(dir.resolve("db"), clock)) {
      Memoria memoria = new Memoria(store.memoria(), new AgentDirectory(here), clock);
      assertThatThrownBy(() -> memoria.importFrom(new FileMemoryStore(source), false))
          .isInstanceOf(MemoryException.class)
          .hasMessageStartingWith(
              "nothing was imported: it holds commentarii of 'brutus', who is no centurio here."
                  + " Known centuriones: pullo, vorenus.");
      assertThat(store.memoria().list(MemoryKind.EDICTA, null)).isEmpty();
      assertThat(store.memoria().commentariiOwners()).isEmpty();

      // Into the castra that still has brutus's folder, the same import goes through.
      Memoria there = new Memoria(store.memoria(), new AgentDirectory(source), clock);
      assertThat(there.importFrom(new FileMemoryStore(source), false).copied()).isEqualTo(5);
    }
  }
}
