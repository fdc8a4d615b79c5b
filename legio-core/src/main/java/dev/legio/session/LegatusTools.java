package dev.legio.session;

import static dev.legio.tools.ToolParameter.Type.INTEGER;
import static dev.legio.tools.ToolParameter.Type.STRING;
import static dev.legio.tools.ToolParameter.Type.STRING_ARRAY;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.Names;
import dev.legio.log.NewMessage;
import dev.legio.log.PraetoriumXml;
import dev.legio.tools.ToolDefinition;
import dev.legio.tools.ToolParameter;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The legatus's own tools, beside memoria's (they drive the {@link SessionEngine}, so they live
 * beside it: every import points down to {@code dev.legio.tools}): {@code get_history}, {@code
 * post_nuntius}, {@code dispatch}, {@code list_centuriones}, {@code get_status}, {@code
 * reset_session}. The log and the engine are suppliers, opened on the first call that needs them (a
 * {@code legio mcp} process that only serves memoria never opens the database).
 *
 * <p>The legatus cannot dispatch to or reset its own session from these tools, nor can an operator
 * channel that speaks for it reset the channel's: the session's turn is the one calling them, and
 * would wait for itself. {@code get_history} refuses a viewer that is no known name as {@code legio
 * say} refuses an unknown agent ({@link KnownNames}).
 *
 * <p>A {@code dispatch} whose call is cancelled (the client's {@code notifications/cancelled}, its
 * MCP session ended) stops waiting, and its answer is never sent; the turns it started go on to
 * their end, and their answers are logged as any reply is (the legatus sees them in its history). A
 * request once logged to an agent is answered: stopping its turn half-way would leave it
 * unanswered.
 */
public final class LegatusTools {
  private LegatusTools() {}

  /** The tools, for the legatus's own sessions. */
  public static List<ToolDefinition> definitions(
      Supplier<MessageLog> log, Supplier<SessionEngine> engine) {
    return definitions(log, engine, Names.LEGATUS);
  }

  /**
   * The tools, for the session of {@code caller}: the legatus, or an operator channel ({@code
   * telegram:123}) that speaks for it.
   */
  public static List<ToolDefinition> definitions(
      Supplier<MessageLog> log, Supplier<SessionEngine> engine, String caller) {
    return List.of(
        new ToolDefinition(
            "get_history",
            "The newest messages of the praetorium (the message log), as <praetorium> XML; with"
                + " viewer, only what that agent may see.",
            List.of(
                ToolParameter.optional("limit", INTEGER, "How many messages (default 50).")
                    .between(1, 1000),
                ToolParameter.optional(
                    "viewer", STRING, "See the log as this agent sees it (default: all of it).")),
            in -> {
              int limit = in.integer("limit", 50);
              String viewer = in.string("viewer", null);
              List<Message> messages =
                  viewer == null
                      ? log.get().history(limit)
                      : log.get()
                          .visibleTo(
                              new KnownNames(engine.get().knownAgents()).viewer(viewer), limit);
              return PraetoriumXml.format(messages, viewer == null ? Names.LEGATUS : viewer);
            }),
        new ToolDefinition(
            "post_nuntius",
            "Post a message to the praetorium, from you, without dispatching it: the agents it is"
                + " addressed to see it in their next context.",
            List.of(
                ToolParameter.required("text", STRING, "The message."),
                ToolParameter.optional(
                    "audience",
                    STRING_ARRAY,
                    "Who it is for: names, or [\"all\"] (default [\"caesar\"])."),
                ToolParameter.optional("reply_to", STRING, "The id of the message it answers.")),
            in -> {
              String text = in.string("text");
              if (text.isBlank()) {
                throw new IllegalArgumentException("the text is empty: write the message to post");
              }
              NewMessage m =
                  NewMessage.of(
                      Names.LEGATUS,
                      new KnownNames(engine.get().knownAgents())
                          .audience(in.strings("audience", List.of(Names.CAESAR))),
                      text);
              String replyTo = in.string("reply_to", null);
              if (replyTo != null) {
                m = m.replyingTo(uuid(replyTo));
              }
              Message posted = log.get().append(m);
              return "Posted nuntius " + posted.id() + " to " + posted.audience() + ".";
            }),
        new ToolDefinition(
            "dispatch",
            "Send a task to a centurio and wait for its answer. The message is logged from you,"
                + " addressed to that agent.",
            List.of(
                ToolParameter.required("centurio_name", STRING, "The agent to dispatch to."),
                ToolParameter.required("text", STRING, "The task.")),
            in -> {
              String target = in.string("centurio_name");
              if (Names.LEGATUS.equals(target)) {
                throw new IllegalArgumentException(
                    "you cannot dispatch to yourself; answer directly");
              }
              Outcome outcome =
                  engine
                      .get()
                      .dispatchFrom(
                          Names.LEGATUS, List.of(target), in.string("text"), DispatchListener.NONE);
              if (outcome.refusal() != null) {
                throw new IllegalArgumentException(outcome.refusal());
              }
              StringBuilder out = new StringBuilder();
              for (Reply r : outcome.replies()) {
                out.append("<reply centurio=\"");
                PraetoriumXml.escapeAttribute(r.agent(), out);
                out.append(r.failed() ? "\" failed=\"true\">" : "\">");
                PraetoriumXml.escapeText(r.text(), out);
                out.append("</reply>");
              }
              return out.toString();
            }),
        new ToolDefinition(
            "list_centuriones",
            "The centuriones (agents) with their descriptions and current status.",
            List.of(),
            in -> {
              StringBuilder out = new StringBuilder("<centuriones>\n");
              for (SessionStatus s : engine.get().status()) {
                if (Owner.of(s.owner()).kind() != OwnerKind.CENTURIO) {
                  continue;
                }
                out.append("<centurio name=\"");
                PraetoriumXml.escapeAttribute(s.owner(), out);
                out.append("\" status=\"");
                PraetoriumXml.escapeAttribute(s.activity(), out);
                out.append("\">");
                PraetoriumXml.escapeText(s.description(), out);
                out.append("</centurio>\n");
              }
              return out.append("</centuriones>").toString();
            }),
        new ToolDefinition(
            "get_status",
            "Every agent's and channel's session: status, whether a session is active, its age,"
                + " input tokens, messages and rebuilds.",
            List.of(),
            in -> {
              StringBuilder out = new StringBuilder("<status>\n");
              for (SessionStatus s : engine.get().status()) {
                SessionRecord r = s.record();
                out.append("<session owner=\"");
                PraetoriumXml.escapeAttribute(s.owner(), out);
                out.append("\" activity=\"").append(s.activity()).append('"');
                out.append(" session=\"")
                    .append(r == null ? "none" : r.active() ? "active" : "closed")
                    .append('"');
                if (s.age() != null) {
                  out.append(" age_seconds=\"").append(s.age().toSeconds()).append('"');
                }
                if (r != null) {
                  out.append(" input_tokens=\"").append(r.inputTokens()).append('"');
                  out.append(" messages=\"").append(r.messageCount()).append('"');
                  out.append(" rebuilds=\"").append(r.rebuilds()).append('"');
                  out.append(" backend=\"");
                  PraetoriumXml.escapeAttribute(r.backend(), out);
                  out.append('"');
                }
                out.append("/>\n");
              }
              return out.append("</status>").toString();
            }),
        new ToolDefinition(
            "reset_session",
            "Close a centurio's session (or every centurio's, with \"all\"): its next task starts"
                + " a fresh session with the recent history.",
            List.of(ToolParameter.required("name", STRING, "A centurio, or \"all\".")),
            in -> {
              String name = in.string("name");
              if (Names.LEGATUS.equals(name) || name.equals(caller)) {
                throw new IllegalArgumentException(
                    "you cannot reset your own session from inside it; caesar can, with /reset "
                        + name);
              }
              SessionEngine e = engine.get();
              if (name.equals("all")) {
                SessionResets.Done done = e.resetAll(Set.of(Names.LEGATUS));
                String said =
                    done.closed().isEmpty()
                        ? "No active centurio sessions to reset."
                        : "Reset: " + String.join(", ", done.closed()) + ".";
                return done.busy().isEmpty()
                    ? said
                    : said
                        + " Busy with a task, so not reset: "
                        + String.join(", ", done.busy())
                        + "; reset them once they have answered.";
              }
              return e.reset(name)
                  ? "Reset " + name + ": its next task starts a fresh session."
                  : name + " has no active session; nothing to reset.";
            }));
  }

  private static UUID uuid(String text) {
    try {
      return UUID.fromString(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("reply_to '" + text + "' is not a message id (a UUID)");
    }
  }
}
