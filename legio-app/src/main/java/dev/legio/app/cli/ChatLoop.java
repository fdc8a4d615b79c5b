package dev.legio.app.cli;

import dev.legio.agents.AgentDirectory;
import dev.legio.app.text.OperatorReplies;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.Names;
import dev.legio.log.NewMessage;
import dev.legio.session.DispatchListener;
import dev.legio.session.KnownNames;
import dev.legio.session.Mentions;
import dev.legio.session.Outcome;
import dev.legio.session.SessionBusyException;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionRecord;
import dev.legio.session.SessionStore;
import dev.legio.transcript.SessionHistoryEditor;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.UsageRecorder;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * What {@code legio chat} does with each line the user types, apart from the terminal itself: slash
 * commands, or a message to dispatch. A line Legio refuses (too long, a NUL character, an unknown
 * agent) is answered with the reason on the error stream, and the chat goes on.
 */
final class ChatLoop {
  static final List<String> COMMANDS =
      List.of("/history", "/share", "/reset", "/rewind", "/fork", "/status", "/help", "/quit");
  static final String HELP =
      """
      Type a message for the legatus, or @name to talk to an agent (@vorenus @pullo: both).
        /history [N]        the last N messages of the log (default 20)
        /share ID @name     hand one message (an id, #sequence, or `last`: the last reply) to
                            an agent: it sees it in its context from its next message
        /reset NAME | all   close a session; its next request starts fresh
        /rewind NAME [N]    take back the last N turns (default 1) of NAME's session
        /fork NAME [OWNER]  a new session continuing NAME's, as OWNER's (default NAME's)
        /status             each agent: status, session age, input tokens, context use, messages,
                            cost
        /quit               leave (Ctrl-D works too)""";

  private final SessionEngine engine;
  private final MessageLog log;
  private final AgentDirectory agents;
  private final PrintWriter out;
  private final PrintWriter err;
  private final DispatchListener progress;
  private UUID lastReply;
  private final String defaultAgent;
  private UsageLedger usage;
  private SessionHistoryEditor editor;
  private SessionStore sessions;
  private Supplier<Optional<UsageRecorder.Unrecorded>> unrecordedUsage = Optional::empty;
  private int unrecordedReported;

  ChatLoop(
      SessionEngine engine,
      MessageLog log,
      AgentDirectory agents,
      PrintWriter out,
      PrintWriter err,
      DispatchListener progress) {
    this(engine, log, agents, out, err, progress, null);
  }

  /**
   * @param defaultAgent where a line with no {@code @mention} goes (a resumed session's agent), or
   *     null for the legatus
   */
  ChatLoop(
      SessionEngine engine,
      MessageLog log,
      AgentDirectory agents,
      PrintWriter out,
      PrintWriter err,
      DispatchListener progress,
      String defaultAgent) {
    this.defaultAgent = defaultAgent;
    this.engine = engine;
    this.log = log;
    this.agents = agents;
    this.out = out;
    this.err = err;
    this.progress = progress;
  }

  /** Makes {@code /status} show each session's cost so far, from {@code usage}. */
  ChatLoop showingCosts(UsageLedger usage) {
    this.usage = usage;
    return this;
  }

  /** Makes the chat say when the usage of its turns could not be recorded. */
  ChatLoop reportingUnrecordedUsage(Supplier<Optional<UsageRecorder.Unrecorded>> unrecorded) {
    this.unrecordedUsage = unrecorded;
    return this;
  }

  /**
   * Says on {@code to} that the usage of turns could not be recorded, for those not said yet.
   * Returns whether any turn's usage went unrecorded during this chat.
   */
  boolean reportUnrecordedUsage(PrintWriter to) {
    unrecordedReported =
        Replies.newlyUnrecordedUsage(unrecordedUsage.get(), unrecordedReported, to);
    return unrecordedReported > 0;
  }

  /** Enables {@code /rewind} and {@code /fork}. */
  ChatLoop withHistoryEditor(SessionHistoryEditor historyEditor, SessionStore sessionStore) {
    this.editor = historyEditor;
    this.sessions = sessionStore;
    return this;
  }

  /** Handles one line; returns false when the user asked to leave. */
  boolean handle(String line) {
    reportUnrecordedUsage(err); // usage is recorded off the turns' path: said at the next line
    String text = line.strip();
    if (text.isEmpty()) {
      return true;
    }
    if (text.startsWith("/")) {
      return command(text);
    }
    if (defaultAgent != null
        && Mentions.parse(text, engine.knownAgents()).targets().isEmpty()
        && Mentions.parse(text, engine.knownAgents()).unknown().isEmpty()) {
      text = "@" + defaultAgent + " " + text;
    }
    Outcome outcome;
    // A Ctrl-C while the message is sent ends the chat, saying what became of the message.
    MessageInterruption interruption = new MessageInterruption(progress);
    MessageInterruption.CtrlC ctrlC = interruption.onCtrlC(err);
    try {
      interruption.sending();
      outcome = engine.handle(text, interruption);
    } catch (IllegalArgumentException refused) {
      // An invalid message (too long, a NUL, an unknown agent) is refused; the chat goes on.
      err.println("legio: line refused: " + refused.getMessage());
      err.flush();
      return true;
    } finally {
      interruption.ended();
      ctrlC.close();
    }
    Replies.print(outcome, out, err);
    outcome.replies().stream()
        .filter(r -> !r.failed() && r.messageId() != null)
        .reduce((first, second) -> second)
        .ifPresent(r -> lastReply = r.messageId());
    err.flush();
    return true;
  }

  private boolean command(String text) {
    String[] words = text.split("\\s+");
    try {
      switch (words[0]) {
        case "/quit", "/exit" -> {
          return false;
        }
        case "/help" -> out.println(HELP);
        case "/status" -> out.print(OperatorReplies.status(engine, agents, usage));
        case "/history" -> out.print(OperatorReplies.history(log, words));
        case "/reset" -> out.println(OperatorReplies.reset(engine, words));
        case "/share" -> share(words);
        case "/rewind", "/fork" -> edit(words);
        default ->
            err.println(
                "Unknown command " + words[0] + ". Commands: " + String.join(", ", COMMANDS));
      }
    } catch (IllegalArgumentException | SessionBusyException e) {
      err.println(e.getMessage());
    }
    out.flush();
    err.flush();
    return true;
  }

  /** {@code /rewind NAME [N]}, {@code /fork NAME [OWNER]}. */
  private void edit(String[] words) {
    boolean rewind = words[0].equals("/rewind");
    String usage = rewind ? "Usage: /rewind NAME [N]" : "Usage: /fork NAME [OWNER]";
    if (editor == null) {
      throw new IllegalArgumentException(words[0] + " is not available here");
    }
    if (words.length < 2 || words.length > 3) {
      throw new IllegalArgumentException(usage);
    }
    String id =
        sessions
            .find(words[1])
            .filter(SessionRecord::active)
            .map(r -> r.sessionId().toString())
            .orElseThrow(() -> new IllegalArgumentException(words[1] + " has no active session"));
    SessionHistoryEditor.Result result;
    if (rewind) {
      int n;
      try {
        n = words.length == 3 ? Integer.parseInt(words[2]) : 1;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(usage);
      }
      result = editor.rewind(id, new SessionHistoryEditor.Point.LastTurns(n));
    } else {
      result =
          editor.fork(
              id, new SessionHistoryEditor.Point.End(), words.length == 3 ? words[2] : null);
    }
    SessionEditCommands.report(rewind ? "Rewound" : "Forked", result, out);
  }

  /**
   * {@code /share ID @agent...}: posts the message again from caesar, addressed to the agents and
   * replying to the original, prefixed with who wrote it. It is not dispatched: each agent finds it
   * in the context of its next message, the way every message addressed to it arrives.
   */
  private void share(String[] words) {
    String usage =
        "Usage: /share ID @name [@name...]; ID is a message id, #sequence (see /history) or"
            + " `last` (the last reply)";
    if (words.length < 3) {
      throw new IllegalArgumentException(usage);
    }
    Message original = findForShare(words[1], usage);
    List<String> targets = new ArrayList<>();
    for (int i = 2; i < words.length; i++) {
      if (!words[i].startsWith("@") || words[i].length() == 1) {
        throw new IllegalArgumentException(usage);
      }
      String name = words[i].substring(1);
      if (Names.LEGATUS.equals(name)) {
        throw new IllegalArgumentException("The legatus sees every message already.");
      }
      if (!agents.centurioNames().contains(name)) {
        throw new IllegalArgumentException(
            new KnownNames(agents.centurioNames()).unknownMentions(List.of(name)));
      }
      targets.add(name);
    }
    Message shared =
        log.append(
            NewMessage.of(
                    Names.CAESAR,
                    Audience.of(targets),
                    "Caesar shares a message from "
                        + original.sender()
                        + " (#"
                        + original.sequence()
                        + "):\n\n"
                        + original.text())
                .replyingTo(original.id()));
    out.println(
        "Shared #"
            + original.sequence()
            + " ("
            + original.sender()
            + ") with "
            + String.join(", ", targets)
            + " as #"
            + shared.sequence()
            + ": it is in their context from their next message.");
  }

  private Message findForShare(String ref, String usage) {
    if (ref.equals("last")) {
      if (lastReply == null) {
        throw new IllegalArgumentException("No reply yet in this chat to share. " + usage);
      }
      return log.find(lastReply).orElseThrow();
    }
    if (ref.startsWith("#")) {
      long sequence;
      try {
        sequence = Long.parseLong(ref.substring(1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(usage);
      }
      List<Message> found = log.visibleTo(Names.CAESAR, sequence - 1, sequence + 1, 1);
      if (found.isEmpty()) {
        throw new IllegalArgumentException("No message #" + sequence + " in the log.");
      }
      return found.get(0);
    }
    UUID id;
    try {
      id = UUID.fromString(ref);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(usage);
    }
    return log.find(id)
        .orElseThrow(() -> new IllegalArgumentException("No message " + id + " in the log."));
  }
}
