package dev.legio.memoria;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentDirectory;
import dev.legio.testing.MutableClock;
import dev.legio.tools.ToolDefinition;
import dev.legio.tools.ToolResult;
import dev.legio.tools.Toolbox;
import dev.legio.tools.Toolset;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The access matrix of the memoria tools: every tool for the legatus, for the owner of a
 * commentarium (vorenus) and for another agent (pullo), through the same {@link Toolset} seam the
 * MCP servers and back-ends use.
 */
class MemoryToolsTest {
  @TempDir Path dir;
  Path castra;
  MutableClock clock = MutableClock.at("2026-02-15T12:00:00Z");
  Toolset legatus;
  Toolset vorenus;
  Toolset pullo;

  static final List<String> AGENT_TOOLS =
      List.of(
          "list_edicta",
          "read_edictum",
          "list_acta",
          "read_actum",
          "publish_actum",
          "list_commentarii",
          "read_commentarium",
          "write_commentarium",
          "search_memoria");

  @BeforeEach
  void setUp() throws Exception {
    castra = dir.resolve("castra");
    MemoriaTest.agent(castra, "vorenus");
    MemoriaTest.agent(castra, "pullo");
    Memoria memoria = new Memoria(openStore(castra), new AgentDirectory(castra), clock);
    legatus = new Toolbox("legatus", MemoryTools.forLegatus(memoria.forLegatus("legatus")));
    vorenus = new Toolbox("vorenus", MemoryTools.forAgent(memoria.forAgent("vorenus")));
    pullo = new Toolbox("pullo", MemoryTools.forAgent(memoria.forAgent("pullo")));

    ok(legatus, "publish_edictum", "{\"name\":\"e1\",\"text\":\"Report daily.\"}");
    ok(vorenus, "publish_actum", "{\"name\":\"a1\",\"text\":\"Bridge out.\"}");
    ok(vorenus, "write_commentarium", "{\"name\":\"mine\",\"text\":\"vorenus private note\"}");
  }

  /** The store the tools use: XML files here, the database in {@link SqliteMemoryToolsTest}. */
  MemoryStore openStore(Path castra) {
    return new FileMemoryStore(castra);
  }

  @org.junit.jupiter.api.AfterEach
  void closeStore() {}

  static String ok(Toolset tools, String tool, String input) {
    ToolResult r = tools.call(tool, input);
    assertThat(r.error()).as(tool + " " + input + " -> " + r.text()).isFalse();
    return r.text();
  }

  static String refused(Toolset tools, String tool, String input) {
    ToolResult r = tools.call(tool, input);
    assertThat(r.error()).as(tool + " " + input + " -> " + r.text()).isTrue();
    return r.text();
  }

  @Test
  void theToolsEachCallerHasAreExactlyItsRights() {
    assertThat(vorenus.tools())
        .extracting(ToolDefinition::name)
        .containsExactlyElementsOf(AGENT_TOOLS);
    assertThat(pullo.tools())
        .extracting(ToolDefinition::name)
        .containsExactlyElementsOf(AGENT_TOOLS);
    assertThat(legatus.tools())
        .extracting(ToolDefinition::name)
        .containsExactly(
            "list_edicta",
            "read_edictum",
            "publish_edictum",
            "revoke_edictum",
            "list_acta",
            "read_actum",
            "publish_actum",
            "list_commentarii",
            "read_commentarium",
            "write_commentarium",
            "search_memoria");
  }

  @Test
  void noAgentToolHasAParameterThatNamesAnAgentOrAnAuthor() {
    for (Toolset agent : List.of(vorenus, pullo)) {
      for (ToolDefinition t : agent.tools()) {
        assertThat(t.parameters())
            .extracting(p -> p.name())
            .doesNotContain("centurio_name", "centurio", "agent", "author", "owner");
        assertThat(t.inputSchemaJson()).contains("\"additionalProperties\":false");
      }
    }
    for (String tool : List.of("list_commentarii", "read_commentarium", "write_commentarium")) {
      ToolDefinition t =
          legatus.tools().stream().filter(d -> d.name().equals(tool)).findFirst().orElseThrow();
      assertThat(t.inputSchemaJson()).contains("\"required\":[\"centurio_name\"");
    }
  }

  @Test
  void edictaEveryoneReadsOnlyTheLegatusPublishesAndRevokes() {
    for (Toolset caller : List.of(legatus, vorenus, pullo)) {
      assertThat(ok(caller, "list_edicta", "{}"))
          .contains("<edictum name=\"e1\" author=\"legatus\"");
      assertThat(ok(caller, "read_edictum", "{\"name\":\"e1\"}")).contains("Report daily.");
    }
    for (Toolset agent : List.of(vorenus, pullo)) {
      assertThat(refused(agent, "publish_edictum", "{\"name\":\"e2\",\"text\":\"x\"}"))
          .startsWith("no tool named 'publish_edictum'");
      assertThat(refused(agent, "revoke_edictum", "{\"name\":\"e1\"}"))
          .startsWith("no tool named 'revoke_edictum'");
    }
    assertThat(ok(legatus, "list_edicta", "{}")).doesNotContain("e2");
    assertThat(ok(legatus, "revoke_edictum", "{\"name\":\"e1\",\"reason\":\"done\"}"))
        .isEqualTo("Revoked edictum 'e1'.");
    assertThat(ok(vorenus, "list_edicta", "{}")).isEqualTo("<edicta></edicta>");
    assertThat(ok(vorenus, "list_edicta", "{\"include_revoked\":true}")).contains("revoked=\"");
  }

  @Test
  void actaEveryoneReadsAndPublishesUnderItsOwnName() {
    for (Toolset caller : List.of(legatus, vorenus, pullo)) {
      assertThat(ok(caller, "list_acta", "{}")).contains("<actum name=\"a1\" author=\"vorenus\"");
      assertThat(ok(caller, "read_actum", "{\"name\":\"a1\"}")).contains("Bridge out.");
    }
    assertThat(ok(pullo, "publish_actum", "{\"name\":\"a1\",\"text\":\"Fixed.\"}"))
        .isEqualTo("Published actum 'a1' as pullo (note 2).");
    assertThat(ok(legatus, "publish_actum", "{\"name\":\"a1\",\"text\":\"Good.\"}"))
        .isEqualTo("Published actum 'a1' as legatus (note 3).");
    // An agent cannot sign as someone else: there is no such parameter.
    assertThat(
            refused(
                pullo, "publish_actum", "{\"name\":\"a2\",\"text\":\"x\",\"author\":\"legatus\"}"))
        .contains("unknown parameter 'author'");
    assertThat(ok(legatus, "list_acta", "{}")).doesNotContain("a2");
  }

  @Test
  void commentariiTheOwnerAndTheLegatusReachAndNoOtherAgentCan() {
    // owner
    assertThat(ok(vorenus, "list_commentarii", "{}")).contains("name=\"mine\"");
    assertThat(ok(vorenus, "read_commentarium", "{\"name\":\"mine\"}"))
        .contains("vorenus private note");
    // legatus, naming the agent
    assertThat(ok(legatus, "list_commentarii", "{\"centurio_name\":\"vorenus\"}"))
        .contains("<commentarii centurio=\"vorenus\">", "name=\"mine\"");
    assertThat(
            ok(legatus, "read_commentarium", "{\"centurio_name\":\"vorenus\",\"name\":\"mine\"}"))
        .contains("vorenus private note");
    assertThat(
            ok(
                legatus,
                "write_commentarium",
                "{\"centurio_name\":\"vorenus\",\"name\":\"mine\",\"text\":\"from the legatus\"}"))
        .isEqualTo("Wrote to commentarium 'mine' of vorenus as legatus (note 2).");
    assertThat(refused(legatus, "list_commentarii", "{}"))
        .contains("parameter 'centurio_name' is required");
    // another agent
    assertThat(ok(pullo, "list_commentarii", "{}"))
        .isEqualTo("<commentarii centurio=\"pullo\"></commentarii>");
    assertThat(refused(pullo, "read_commentarium", "{\"name\":\"mine\"}"))
        .contains("no commentarium named 'mine' in pullo's commentarii");
    assertThat(refused(pullo, "list_commentarii", "{\"centurio_name\":\"vorenus\"}"))
        .contains("unknown parameter 'centurio_name'", "this tool takes no parameters");
    assertThat(
            refused(
                pullo, "read_commentarium", "{\"name\":\"mine\",\"centurio_name\":\"vorenus\"}"))
        .contains("unknown parameter 'centurio_name'");
    // pullo writing "mine" writes to its own commentarii, never to vorenus's
    ok(pullo, "write_commentarium", "{\"name\":\"mine\",\"text\":\"pullo's own\"}");
    assertThat(ok(legatus, "read_commentarium", "{\"centurio_name\":\"pullo\",\"name\":\"mine\"}"))
        .contains("pullo's own");
    String vorenusMine = ok(vorenus, "read_commentarium", "{\"name\":\"mine\"}");
    assertThat(vorenusMine).doesNotContain("pullo's own").contains("from the legatus");
  }

  @Test
  void searchCoversWhatEachCallerMayReadAndNothingElse() {
    assertThat(ok(vorenus, "search_memoria", "{\"query\":\"private\"}"))
        .contains("matches=\"1\"", "<commentarium name=\"mine\" centurio=\"vorenus\"");
    assertThat(ok(pullo, "search_memoria", "{\"query\":\"private\"}"))
        .isEqualTo("<memoria query=\"private\" matches=\"0\"></memoria>");
    assertThat(ok(legatus, "search_memoria", "{\"query\":\"private\"}")).contains("matches=\"1\"");
    for (Toolset caller : List.of(legatus, vorenus, pullo)) {
      assertThat(ok(caller, "search_memoria", "{\"query\":\"bridge\"}")).contains("name=\"a1\"");
      assertThat(ok(caller, "search_memoria", "{\"query\":\"daily\"}")).contains("name=\"e1\"");
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "../vorenus/commentarii/mine",
        "../../centuriones/vorenus/commentarii/mine",
        "..%2fvorenus%2fcommentarii%2fmine",
        "..\\\\vorenus\\\\commentarii\\\\mine",
        "%2e%2e%2fvorenus",
        "mine\\u0000",
        "mine\\n",
        "mіne", // Cyrillic 'і'
        "MINE",
        "/abs/path"
      })
  void nameTricksNeverReachAnotherAgentsCommentarii(String trick) {
    for (String tool : List.of("read_commentarium", "write_commentarium")) {
      String input =
          "{\"name\":\"" + trick + "\"" + (tool.startsWith("write") ? ",\"text\":\"x\"" : "") + "}";
      String answer = refused(pullo, tool, input);
      assertThat(answer).doesNotContain("vorenus private note");
    }
    assertThat(ok(vorenus, "read_commentarium", "{\"name\":\"mine\"}"))
        .doesNotContain("<entry author=\"pullo\"");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "../vorenus",
        "vorenus/..",
        "vorenuѕ",
        "Vorenus",
        "vorenus\\u0000",
        "legatus",
        "caesar",
        ""
      })
  void theLegatusCannotNameAnAgentThatDoesNotExist(String centurio) {
    assertThat(refused(legatus, "list_commentarii", "{\"centurio_name\":\"" + centurio + "\"}"))
        .containsAnyOf("no centurio named", "no agent given");
  }

  @Test
  void malformedCallsAreRefusedWithAMessageNamingTheParameter() {
    assertThat(refused(vorenus, "read_actum", "{}"))
        .isEqualTo("read_actum: parameter 'name' is required");
    assertThat(refused(vorenus, "read_actum", "{\"name\":3}")).contains("'name' must be a string");
    assertThat(refused(vorenus, "read_actum", "[1]")).contains("must be a JSON object");
    assertThat(refused(vorenus, "read_actum", "{not json")).contains("not valid JSON");
    assertThat(refused(vorenus, "search_memoria", "{\"query\":\"x\",\"limit\":0}"))
        .contains("'limit' must be from 1 to 200");
    assertThat(refused(vorenus, "nope", "{}")).startsWith("no tool named 'nope' for vorenus");
    assertThat(ok(vorenus, "list_acta", null)).contains("a1");
  }
}
