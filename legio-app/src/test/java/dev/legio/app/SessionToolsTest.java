package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.SessionSpec;
import dev.legio.log.Names;
import dev.legio.memoria.LegatusMemory;
import dev.legio.testing.MutableClock;
import dev.legio.tools.ToolDefinition;
import dev.legio.tools.ToolResult;
import dev.legio.tools.Toolset;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which tools each session of an HTTP back-end gets, by owner and role ({@code LegioApp}). */
class SessionToolsTest {
  private static final List<String> LEGATUS =
      List.of(
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
          "search_memoria",
          "get_history",
          "post_nuntius",
          "dispatch",
          "list_centuriones",
          "get_status",
          "reset_session");
  private static final List<String> CENTURIO =
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
  private static final List<String> CHAT =
      List.of("list_edicta", "read_edictum", "list_acta", "read_actum", "search_memoria");

  @TempDir Path dir;
  private LegioApp app;

  @BeforeEach
  void open() {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    app = LegioApp.open(workspace, Map.of(), MutableClock.at("2026-03-01T09:00:00Z"));
  }

  @AfterEach
  void close() {
    app.close();
  }

  private Toolset tools(String owner, String role) {
    return app.sessionTools(new SessionSpec(owner, "prompt", null, role, null));
  }

  private static List<String> names(Toolset tools) {
    return tools.tools().stream().map(ToolDefinition::name).toList();
  }

  @Test
  void eachOwnerAndRoleGetsItsTools() {
    assertThat(names(tools(Names.LEGATUS, SessionSpec.OPERATOR_ROLE)))
        .containsExactlyElementsOf(LEGATUS);
    assertThat(names(tools("pullo", SessionSpec.OPERATOR_ROLE)))
        .containsExactlyElementsOf(CENTURIO);
    assertThat(names(tools("viewer:1", SessionSpec.OPERATOR_ROLE)))
        .containsExactlyElementsOf(LEGATUS);
    assertThat(names(tools("telegram:123", SessionSpec.CHAT_ROLE))).containsExactlyElementsOf(CHAT);
    // A role the mapping does not know gets the least: chat's.
    assertThat(names(tools("telegram:123", "admin"))).containsExactlyElementsOf(CHAT);
    assertThat(names(tools(Names.LEGATUS, SessionSpec.CHAT_ROLE))).containsExactlyElementsOf(CHAT);
  }

  @Test
  void anOperatorChannelCannotResetItsOwnSessionFromInsideItsTurn() {
    var result =
        tools("viewer:1", SessionSpec.OPERATOR_ROLE)
            .call("reset_session", "{\"name\": \"viewer:1\"}");
    assertThat(result.error()).isTrue();
    assertThat(result.text())
        .isEqualTo(
            "you cannot reset your own session from inside it; caesar can, with /reset viewer:1");
    // Another channel's it may (one with a session: a channel with none is no name to reset).
    app.engine().handleChannel("viewer:2", "hello", dev.legio.session.DispatchListener.NONE);
    ToolResult other =
        tools("viewer:1", SessionSpec.OPERATOR_ROLE)
            .call("reset_session", "{\"name\": \"viewer:2\"}");
    assertThat(other.error()).as(other.text()).isFalse();
    assertThat(other.text()).startsWith("Reset viewer:2");
  }

  @Test
  void aCenturiosCommentariiToolsNameNoOtherAgent() {
    Toolset pullo = tools("pullo", SessionSpec.OPERATOR_ROLE);
    assertThat(pullo.tools())
        .flatExtracting(ToolDefinition::parameters)
        .extracting(p -> p.name())
        .doesNotContain("centurio_name");
  }

  @Test
  void aChatChannelReadsWhatEveryAgentSharesAndNothingElse() throws Exception {
    LegatusMemory memory = app.memoria().forLegatus(Names.LEGATUS);
    memory.publishEdictum("grain-rations", "Grain is rationed to one measure a day.");
    memory.publishActum("north-road", "The north road is clear; grain carts pass.");
    memory.writeCommentarium("pullo", "private", "Pullo hid the grain under the wagon.");
    Toolset chat = tools("telegram:123", SessionSpec.CHAT_ROLE);
    Toolset legatus = tools(Names.LEGATUS, SessionSpec.OPERATOR_ROLE);

    ToolResult found = chat.call("search_memoria", "{\"query\":\"grain\"}");
    assertThat(found.error()).isFalse();
    assertThat(found.text())
        .contains("grain-rations")
        .contains("north-road")
        .doesNotContain("private")
        .doesNotContain("wagon");
    // The legatus's search does reach the commentarium: the chat channel's is narrower.
    assertThat(legatus.call("search_memoria", "{\"query\":\"grain\"}").text()).contains("wagon");
    assertThat(chat.call("read_edictum", "{\"name\":\"grain-rations\"}").text())
        .contains("one measure a day");

    for (String forbidden :
        List.of(
            "publish_edictum",
            "revoke_edictum",
            "publish_actum",
            "write_commentarium",
            "read_commentarium",
            "get_history",
            "post_nuntius",
            "dispatch",
            "reset_session")) {
      ToolResult refused = chat.call(forbidden, "{\"name\":\"x\",\"text\":\"y\"}");
      assertThat(refused.error()).as(forbidden).isTrue();
      assertThat(refused.text()).as(forbidden).contains("no tool named '" + forbidden + "'");
    }
    try (Stream<Path> edicta = Files.list(dir.resolve("castra/edicta"))) {
      assertThat(edicta.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".xml")))
          .containsExactly("grain-rations.xml");
    }
    assertThat(app.messageLog().size()).isZero();
  }

  @Test
  void getHistoryRefusesAViewerThatIsNoKnownNameListingTheKnownOnes() {
    Toolset legatus = tools(Names.LEGATUS, SessionSpec.OPERATOR_ROLE);

    ToolResult refused = legatus.call("get_history", "{\"viewer\":\"nosuch\"}");
    assertThat(refused.error()).isTrue();
    assertThat(refused.text())
        .isEqualTo("Unknown viewer nosuch. Known names: caesar, legatus, pullo, vorenus.");
    ToolResult all = legatus.call("get_history", "{\"viewer\":\"all\"}");
    assertThat(all.error()).isTrue();
    assertThat(all.text()).startsWith("Unknown viewer all.");

    for (String viewer : List.of("caesar", "legatus", "pullo", "telegram:123")) {
      ToolResult seen = legatus.call("get_history", "{\"viewer\":\"" + viewer + "\"}");
      assertThat(seen.error()).as(viewer + ": " + seen.text()).isFalse();
      assertThat(seen.text()).as(viewer).contains("viewer=\"" + viewer + "\"");
    }
  }

  @Test
  void postNuntiusRefusesAnAudienceNameThatIsNoKnownNameAndPostsNothing() {
    Toolset legatus = tools(Names.LEGATUS, SessionSpec.OPERATOR_ROLE);

    ToolResult refused =
        legatus.call("post_nuntius", "{\"text\":\"hi\",\"audience\":[\"vorenus\",\"nosuch\"]}");
    assertThat(refused.error()).isTrue();
    assertThat(refused.text()).startsWith("Unknown name nosuch. Known names: caesar, legatus,");
    assertThat(app.messageLog().size()).isZero();

    ToolResult posted =
        legatus.call("post_nuntius", "{\"text\":\"hi\",\"audience\":[\"vorenus\",\"all\"]}");
    assertThat(posted.error()).as(posted.text()).isFalse();
    assertThat(app.messageLog().size()).isEqualTo(1);
  }
}
