package dev.legio.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class AgentDirectoryTest {
  private static final FileTime T1 = FileTime.from(Instant.parse("2025-01-01T10:00:00Z"));
  private static final FileTime T2 = FileTime.from(Instant.parse("2025-01-01T10:05:00Z"));
  private static final FileTime T3 = FileTime.from(Instant.parse("2025-01-01T10:10:00Z"));

  @TempDir Path dir;
  private Path castra;
  private AgentDirectory agents;

  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(AgentDirectory.class);

  @BeforeEach
  void setUp() throws Exception {
    castra = dir.resolve("castra");
    Files.createDirectories(castra.resolve("centuriones"));
    agents = new AgentDirectory(castra);
    logged.start();
    logger.addAppender(logged);
  }

  @AfterEach
  void tearDown() {
    logger.detachAppender(logged);
  }

  private Path write(String relative, String content, FileTime modified) throws Exception {
    Path file = castra.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    Files.setLastModifiedTime(file, modified);
    return file;
  }

  private Path centurio(String name, String description, FileTime modified) throws Exception {
    return write(
        "centuriones/" + name + "/prompt.md",
        "---\ndescription: " + description + "\n---\nYou are " + name + ".\n",
        modified);
  }

  private List<String> warnings() {
    return logged.list.stream()
        .filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  @Test
  void theInitTemplatesParseWithTheirDescriptions() {
    Workspace workspace = new Workspace(dir.resolve("legion"));
    WorkspaceInitializer.initialise(workspace);
    AgentDirectory legion = AgentDirectory.of(workspace);

    AgentProfile legatus = legion.legatus();
    assertThat(legatus.description())
        .isEqualTo(
            "Orchestrator. Talks with Caesar, plans, and dispatches work to the centuriones.");
    assertThat(legatus.prompt()).startsWith("# Legatus\n");
    assertThat(legion.centuriones())
        .extracting(AgentProfile::name, AgentProfile::description)
        .containsExactly(
            tuple(
                "pullo",
                "Field engineer. Builds, tries things out, reports what actually happened."),
            tuple(
                "vorenus",
                "Technology analysis specialist. Reviews designs and code, weighs trade-offs."));
    assertThat(legion.centurio("vorenus").orElseThrow().historyWindow()).hasValue(50);
    assertThat(legion.centurio("pullo").orElseThrow().historyWindow()).hasValue(30);
    assertThat(legion.names()).containsExactly("legatus", "pullo", "vorenus");
    assertThat(legion.problems()).isEmpty();
    assertThat(warnings()).isEmpty();
  }

  @Test
  void aBareCastraHasTheDefaultLegatus() {
    AgentProfile legatus = new AgentDirectory(dir.resolve("nothing-here")).legatus();

    assertThat(legatus.name()).isEqualTo("legatus");
    assertThat(legatus.description()).isEqualTo("Orchestrator");
    assertThat(legatus.prompt())
        .isEqualTo(AgentDirectory.DEFAULT_LEGATUS_PROMPT)
        .contains("Caesar's orchestrator");
    assertThat(legatus.promptHash())
        .isEqualTo(
            PromptFile.sha256(
                AgentDirectory.DEFAULT_LEGATUS_PROMPT.getBytes(StandardCharsets.UTF_8)));
    assertThat(new AgentDirectory(dir.resolve("nothing-here")).centuriones()).isEmpty();
    assertThat(new AgentDirectory(dir.resolve("nothing-here")).names()).containsExactly("legatus");
  }

  @Test
  void theLegatusFileWinsOverTheDefaultAndABrokenOneIsAnError() throws Exception {
    write("legatus/prompt.md", "---\ndescription: Mine\n---\nLead.\n", T1);
    assertThat(agents.legatus().description()).isEqualTo("Mine");

    write("legatus/prompt.md", "---\ncolour: red\n---\nLead.\n", T2);
    assertThatThrownBy(agents::legatus)
        .isInstanceOf(AgentConfigException.class)
        .hasMessageStartingWith(castra.resolve("legatus/prompt.md") + ": unknown front matter key");
  }

  @Test
  void anAgentIsAFolderWithAPromptFileAndStopsBeingOneWhenItIsRemoved() throws Exception {
    Path file = centurio("vorenus", "Analyst", T1);
    Files.createDirectories(castra.resolve("centuriones/pullo/commentarii"));
    assertThat(agents.isAgent("vorenus")).isTrue();
    assertThat(agents.isAgent("legatus")).isTrue();
    assertThat(agents.isAgent("pullo")).isFalse(); // a folder without prompt.md
    assertThat(agents.isAgent("../vorenus")).isFalse();

    Files.delete(file);
    assertThat(agents.isAgent("vorenus")).isFalse();
  }

  @Test
  void anEditIsSeenAtTheNextCallAndTheHashFollowsTheContent() throws Exception {
    Path file = centurio("vorenus", "Analyst", T1);
    AgentProfile first = agents.centurio("vorenus").orElseThrow();
    assertThat(agents.centurio("vorenus").orElseThrow()).isSameAs(first);

    // Same content, new time: read again, same hash.
    Files.setLastModifiedTime(file, T2);
    AgentProfile touched = agents.centurio("vorenus").orElseThrow();
    assertThat(touched).isNotSameAs(first).isEqualTo(first);
    assertThat(touched.promptHash()).isEqualTo(first.promptHash());

    centurio("vorenus", "Chief analyst", T2); // size changed
    AgentProfile edited = agents.centurio("vorenus").orElseThrow();
    assertThat(edited.description()).isEqualTo("Chief analyst");
    assertThat(edited.promptHash()).isNotEqualTo(first.promptHash());
    assertThat(agents.centuriones()).containsExactly(edited);
  }

  @Test
  void aFileIsOnlyReadAgainWhenItsTimeOrSizeChanged() throws Exception {
    centurio("vorenus", "Analyst", T1);
    assertThat(agents.centurio("vorenus").orElseThrow().description()).isEqualTo("Analyst");

    // Same size, same time: the cached read stands (this is the documented trade-off).
    centurio("vorenus", "Analyzt", T1);
    assertThat(agents.centurio("vorenus").orElseThrow().description()).isEqualTo("Analyst");
    assertThat(agents.centuriones())
        .extracting(AgentProfile::description)
        .containsExactly("Analyst");

    // Same size, new time: read again.
    centurio("vorenus", "Analyzt", T2);
    assertThat(agents.centurio("vorenus").orElseThrow().description()).isEqualTo("Analyzt");
  }

  @Test
  void aSecondWriteOfTheSameSizeInTheSameClockTickIsSeenToo() throws Exception {
    // Two writes of the same size within one tick of the file system's clock leave the file's time
    // and size as they were. A read that soon after the file's time is not kept, so the second
    // write is seen at the next call.
    FileTime now = FileTime.from(Instant.now());
    Path file = centurio("vorenus", "Analyst", now);
    assertThat(agents.centurio("vorenus").orElseThrow().description()).isEqualTo("Analyst");
    centurio("vorenus", "Analyzt", now);
    assertThat(agents.centurio("vorenus").orElseThrow().description()).isEqualTo("Analyzt");

    // Once a read begins well after the file's time, it is kept again.
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(5)));
    AgentProfile settled = agents.centurio("vorenus").orElseThrow();
    assertThat(agents.centurio("vorenus").orElseThrow()).isSameAs(settled);
  }

  @Test
  void aDeletedAgentIsGone() throws Exception {
    Path file = centurio("vorenus", "Analyst", T1);
    assertThat(agents.centurio("vorenus")).isPresent();

    Files.delete(file);
    assertThat(agents.centurio("vorenus")).isEmpty();
    assertThat(agents.centurio("nobody")).isEmpty();
    assertThat(agents.problems()).containsExactly(file + ": missing, so 'vorenus' is not an agent");

    Files.delete(file.getParent());
    Files.writeString(castra.resolve("centuriones/notes"), "a file, not a folder");
    assertThat(agents.centurio("notes")).isEmpty();
    assertThat(agents.centuriones()).isEmpty();
    assertThat(agents.problems()).isEmpty();
  }

  @Test
  void oneBrokenAgentNeverHidesTheOthers() throws Exception {
    centurio("vorenus", "Analyst", T1);
    centurio("pullo", "Engineer", T1);
    Path broken = write("centuriones/brutus/prompt.md", "---\nhistory_window: lots\n---\n", T1);
    Files.createDirectories(castra.resolve("centuriones/empty"));
    centurio("Cicero", "Orator", T1);
    centurio("legatus", "Impostor", T1);
    centurio("caesar", "Impostor", T1);
    Files.createDirectories(castra.resolve("centuriones/.git"));
    Files.writeString(castra.resolve("centuriones/README.md"), "notes");

    assertThat(agents.centuriones())
        .extracting(AgentProfile::name)
        .containsExactly("pullo", "vorenus");
    assertThat(agents.names()).containsExactly("legatus", "pullo", "vorenus");
    List<String> problems = agents.problems();
    assertThat(problems).hasSize(5).allSatisfy(p -> assertThat(p).doesNotContain("\n"));
    assertThat(problems.get(0))
        .startsWith(castra.resolve("centuriones/Cicero") + ": ")
        .contains("'Cicero' is not a valid name");
    assertThat(problems.get(1))
        .isEqualTo(broken + ": history_window: expected an integer from 0 to 10000, got \"lots\"");
    assertThat(problems.get(2))
        .startsWith(castra.resolve("centuriones/caesar") + ": ")
        .contains("reserved");
    assertThat(problems.get(3))
        .isEqualTo(
            castra.resolve("centuriones/empty/prompt.md")
                + ": missing, so 'empty' is not an agent");
    assertThat(problems.get(4))
        .startsWith(castra.resolve("centuriones/legatus") + ": ")
        .contains("reserved");
    assertThatThrownBy(() -> agents.centurio("brutus"))
        .isInstanceOf(AgentConfigException.class)
        .hasMessage(problems.get(1));
  }

  @Test
  void aBrokenLegatusPromptIsTheFirstProblemAndHidesNoCenturio() throws Exception {
    centurio("vorenus", "Analyst", T1);
    Path broken = write("centuriones/brutus/prompt.md", "---\nhistory_window: lots\n---\n", T1);
    Path legatus = write("legatus/prompt.md", "---\ndescription: [unclosed\n---\nLead.\n", T1);

    assertThat(agents.centuriones()).extracting(AgentProfile::name).containsExactly("vorenus");
    List<String> problems = agents.problems();
    assertThat(problems).hasSize(2);
    assertThat(problems.get(0))
        .startsWith(legatus + ": the front matter is not valid YAML at line 2")
        .isEqualTo(agents.legatusProblem());
    assertThat(problems.get(1)).startsWith(broken + ": ");

    write("legatus/prompt.md", "---\ndescription: Mine\n---\nLead.\n", T2);
    assertThat(agents.legatusProblem()).isNull();
    assertThat(agents.problems()).hasSize(1);
  }

  @Test
  void aProblemIsLoggedOnceUntilTheFileChanges() throws Exception {
    Path broken = write("centuriones/brutus/prompt.md", "---\nhistory_window: lots\n---\n", T1);

    agents.centuriones();
    agents.problems();
    assertThat(warnings()).hasSize(1).first().asString().contains(broken + ": history_window");

    Files.setLastModifiedTime(broken, T2); // read again, same content: not logged again
    agents.centuriones();
    assertThat(warnings()).hasSize(1);

    write("centuriones/brutus/prompt.md", "---\nhistory_window: many\n---\n", T3);
    agents.centuriones();
    assertThat(warnings()).hasSize(2);

    write("centuriones/brutus/prompt.md", "---\nhistory_window: 5\n---\n", T1);
    assertThat(agents.centuriones()).extracting(AgentProfile::name).containsExactly("brutus");
    write("centuriones/brutus/prompt.md", "---\nhistory_window: many\n---\n", T2);
    agents.centuriones();
    assertThat(warnings()).hasSize(3); // broken again after a fix: logged again
  }

  @Test
  void namesThatAreNotCenturionesAreRefusedBeforeTheFileSystem() throws Exception {
    write("legatus/prompt.md", "---\ndescription: Lead\n---\n", T1);
    write("caesar/prompt.md", "---\ndescription: Op\n---\n", T1);
    Files.writeString(dir.resolve("prompt.md"), "---\ndescription: Outside\n---\n");
    write("centuriones/vorenus/prompt.md", "---\ndescription: Analyst\n---\n", T1);

    for (String name :
        new String[] {
          "../legatus",
          "../caesar",
          "../..",
          "..",
          ".",
          "",
          "a/b",
          "vorenus/prompt.md",
          "Vorenus",
          "vorenus:1",
          "a".repeat(33),
          "caesar",
          "legatus",
          "all",
          dir.toString(),
          "vorenus\u0000"
        }) {
      assertThat(agents.centurio(name)).as(name).isEmpty();
    }
    assertThat(agents.centurio(null)).isEmpty();
    assertThat(agents.centurio("a".repeat(32))).isEmpty(); // valid, but no such agent
    assertThat(agents.centurio("vorenus")).isPresent();
  }

  @Test
  void theNamesAMessageMayMentionAreTheLegatusAndTheFoldersSortedAndListedOncePerChange()
      throws Exception {
    Path folder = castra.resolve("centuriones");
    Files.createDirectories(folder.resolve("vorenus"));
    Files.createDirectories(folder.resolve("pullo"));
    Files.setLastModifiedTime(folder, T1);

    var first = agents.agentNames();
    assertThat(first).containsExactly("legatus", "pullo", "vorenus");
    assertThat(agents.centurioNames()).containsExactly("pullo", "vorenus");
    assertThat(agents.agentNames()).as("the folder did not change").isSameAs(first);

    Files.createDirectories(folder.resolve("acilius"));
    Files.setLastModifiedTime(folder, T2);
    assertThat(agents.agentNames()).containsExactly("acilius", "legatus", "pullo", "vorenus");
    assertThatThrownBy(() -> agents.agentNames().add("caesar"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aFolderAddedInTheSameClockTickAsTheLastListingIsSeenToo() throws Exception {
    // Adding a folder within the tick of the file system's clock in which the folder was last
    // listed leaves its time as it was; a listing that soon after it is not kept.
    Path folder = castra.resolve("centuriones");
    Files.createDirectories(folder.resolve("vorenus"));
    FileTime now = FileTime.from(Instant.now());
    Files.setLastModifiedTime(folder, now);
    assertThat(agents.centurioNames()).containsExactly("vorenus");
    Files.createDirectories(folder.resolve("pullo"));
    Files.setLastModifiedTime(folder, now);
    assertThat(agents.centurioNames()).containsExactly("pullo", "vorenus");
    var names = agents.agentNames();
    assertThat(agents.agentNames()).as("listed again, the same names").isSameAs(names);
  }
}
