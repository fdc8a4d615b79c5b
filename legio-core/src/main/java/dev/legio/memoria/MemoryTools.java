package dev.legio.memoria;

import static dev.legio.tools.ToolParameter.Type.BOOLEAN;
import static dev.legio.tools.ToolParameter.Type.INTEGER;
import static dev.legio.tools.ToolParameter.Type.STRING;

import dev.legio.tools.ToolDefinition;
import dev.legio.tools.ToolParameter;
import java.util.ArrayList;
import java.util.List;

/**
 * The memoria tools, with Legio's names, built for one caller.
 *
 * <table>
 *   <caption>Who gets which tool</caption>
 *   <tr><th>tool</th><th>agent</th><th>legatus</th></tr>
 *   <tr><td>list_edicta, read_edictum</td><td>read</td><td>read</td></tr>
 *   <tr><td>publish_edictum, revoke_edictum</td><td>-</td><td>write</td></tr>
 *   <tr><td>list_acta, read_actum</td><td>read</td><td>read</td></tr>
 *   <tr><td>publish_actum</td><td>write, as itself</td><td>write, as legatus</td></tr>
 *   <tr><td>list_commentarii, read_commentarium, write_commentarium</td><td>its own only (no
 *       agent parameter)</td><td>any agent's ({@code centurio_name} required)</td></tr>
 *   <tr><td>search_memoria</td><td>edicta, acta, its own commentarii</td><td>everything</td></tr>
 * </table>
 *
 * <p>{@link #forReader} is a third, read-only set for a caller who may only read what every agent
 * shares (a {@code chat} channel): list and read edicta and acta, and search them.
 */
public final class MemoryTools {
  private static final String NAME_RULE =
      " (1-64 characters: lowercase ASCII letters, digits, '-', '_' or '.', a letter or digit"
          + " first)";
  private static final String CENTURIO = "centurio_name";

  private MemoryTools() {}

  /** An agent's memoria tools: its commentarii are the only ones they reach. */
  public static List<ToolDefinition> forAgent(AgentMemory memory) {
    List<ToolDefinition> tools = new ArrayList<>(common(memory));
    tools.add(
        new ToolDefinition(
            "list_commentarii",
            "List your commentarii: your own notes, which no other agent can read.",
            List.of(),
            in ->
                MemoryXml.listing(
                    MemoryKind.COMMENTARII, memory.agent(), memory.listCommentarii())));
    tools.add(
        new ToolDefinition(
            "read_commentarium",
            "Read one of your commentarii, with every note written to it.",
            List.of(name("commentarium")),
            in -> MemoryXml.element(memory.readCommentarium(in.string("name")))));
    tools.add(
        new ToolDefinition(
            "write_commentarium",
            "Write a note to your commentarii (append-only: writing to an existing name adds a"
                + " note). Use them for what you want to remember between sessions.",
            List.of(name("commentarium"), text("The note.")),
            in ->
                confirm(
                    "Wrote to commentarium",
                    memory.writeCommentarium(in.string("name"), in.string("text")))));
    tools.add(search(memory));
    return order(tools);
  }

  /** The legatus's memoria tools (also caesar's): edicta, and every agent's commentarii. */
  public static List<ToolDefinition> forLegatus(LegatusMemory memory) {
    List<ToolDefinition> tools = new ArrayList<>(common(memory));
    tools.add(
        new ToolDefinition(
            "publish_edictum",
            "Publish an edictum: a directive every agent reads. A name is used once; to change a"
                + " directive, revoke it and publish a new one.",
            List.of(name("edictum"), text("The directive.")),
            in ->
                confirm(
                    "Published edictum",
                    memory.publishEdictum(in.string("name"), in.string("text")))));
    tools.add(
        new ToolDefinition(
            "revoke_edictum",
            "Revoke an edictum: it stops being in force and stays readable, marked revoked.",
            List.of(
                name("edictum"), ToolParameter.optional("reason", STRING, "Why it is revoked.")),
            in -> {
              MemoryEntry e = memory.revokeEdictum(in.string("name"), in.string("reason", ""));
              return "Revoked edictum '" + e.name() + "'.";
            }));
    tools.add(
        new ToolDefinition(
            "list_commentarii",
            "List an agent's commentarii (its own notes).",
            List.of(centurio()),
            in ->
                MemoryXml.listing(
                    MemoryKind.COMMENTARII,
                    in.string(CENTURIO),
                    memory.listCommentarii(in.string(CENTURIO)))));
    tools.add(
        new ToolDefinition(
            "read_commentarium",
            "Read one of an agent's commentarii.",
            List.of(centurio(), name("commentarium")),
            in ->
                MemoryXml.element(
                    memory.readCommentarium(in.string(CENTURIO), in.string("name")))));
    tools.add(
        new ToolDefinition(
            "write_commentarium",
            "Write a note to an agent's commentarii (append-only), signed as you.",
            List.of(centurio(), name("commentarium"), text("The note.")),
            in ->
                confirm(
                    "Wrote to commentarium",
                    memory.writeCommentarium(
                        in.string(CENTURIO), in.string("name"), in.string("text")))));
    tools.add(search(memory));
    return order(tools);
  }

  /**
   * Reading tools only, over what every agent shares: {@code list_edicta}, {@code read_edictum},
   * {@code list_acta}, {@code read_actum} and {@code search_memoria} over edicta and acta (never
   * commentarii). Nothing here writes.
   */
  public static List<ToolDefinition> forReader(MemoryAccess memory) {
    List<ToolDefinition> tools = new ArrayList<>();
    for (ToolDefinition t : common(memory)) {
      if (!t.name().startsWith("publish_")) {
        tools.add(t);
      }
    }
    tools.add(
        searchTool(
            "Search the edicta and acta for entries holding every word of the query, case"
                + " ignored.",
            (query, limit) -> memory.searchShared(query, limit)));
    return order(tools);
  }

  private static List<ToolDefinition> common(MemoryAccess memory) {
    return List.of(
        new ToolDefinition(
            "list_edicta",
            "List the edicta: directives from the legatus that every agent follows.",
            List.of(
                ToolParameter.optional(
                    "include_revoked", BOOLEAN, "Also list revoked edicta (default false).")),
            in ->
                MemoryXml.listing(
                    MemoryKind.EDICTA, null, memory.listEdicta(in.bool("include_revoked", false)))),
        new ToolDefinition(
            "read_edictum",
            "Read one edictum.",
            List.of(name("edictum")),
            in -> MemoryXml.element(memory.readEdictum(in.string("name")))),
        new ToolDefinition(
            "list_acta",
            "List the acta: shared records any agent may read and publish.",
            List.of(),
            in -> MemoryXml.listing(MemoryKind.ACTA, null, memory.listActa())),
        new ToolDefinition(
            "read_actum",
            "Read one actum, with every note published to it.",
            List.of(name("actum")),
            in -> MemoryXml.element(memory.readActum(in.string("name")))),
        new ToolDefinition(
            "publish_actum",
            "Publish a lasting finding to the acta so every agent can read it, signed as you."
                + " Publishing to an existing name adds a note to it.",
            List.of(name("actum"), text("The finding.")),
            in ->
                confirm(
                    "Published actum", memory.publishActum(in.string("name"), in.string("text")))));
  }

  private static ToolDefinition search(MemoryAccess memory) {
    return searchTool(
        "Search the memoria you may read (edicta, acta, commentarii) for entries holding every"
            + " word of the query, case ignored.",
        memory::search);
  }

  private static ToolDefinition searchTool(
      String description, java.util.function.BiFunction<String, Integer, List<SearchHit>> search) {
    return new ToolDefinition(
        "search_memoria",
        description,
        List.of(
            ToolParameter.required("query", STRING, "One or more words."),
            ToolParameter.optional("limit", INTEGER, "Most results (default 20).").between(1, 200)),
        in ->
            MemoryXml.searchResults(
                in.string("query"), search.apply(in.string("query"), in.integer("limit", 20))));
  }

  private static final List<String> ORDER =
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
          "search_memoria");

  private static List<ToolDefinition> order(List<ToolDefinition> tools) {
    List<ToolDefinition> sorted = new ArrayList<>(tools);
    sorted.sort(java.util.Comparator.comparingInt(t -> ORDER.indexOf(t.name())));
    return List.copyOf(sorted);
  }

  private static ToolParameter name(String kind) {
    return ToolParameter.required("name", STRING, "The " + kind + "'s name" + NAME_RULE + ".");
  }

  private static ToolParameter text(String description) {
    return ToolParameter.required("text", STRING, description);
  }

  private static ToolParameter centurio() {
    return ToolParameter.required(CENTURIO, STRING, "The agent whose commentarii to use.");
  }

  private static String confirm(String what, MemoryEntry e) {
    return what
        + " '"
        + e.name()
        + "'"
        + (e.centurio() == null ? "" : " of " + e.centurio())
        + " as "
        + e.notes().get(e.notes().size() - 1).author()
        + (e.notes().size() > 1 ? " (note " + e.notes().size() + ")" : "")
        + ".";
  }
}
