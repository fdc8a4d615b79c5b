package dev.legio.app.cli;

import dev.legio.agents.AgentDirectory;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.session.DispatchListener;
import dev.legio.session.Mentions;
import dev.legio.session.SessionEngine;
import java.io.PrintWriter;
import java.util.List;

/**
 * What {@code legio chat} does with each line the user types, apart from the terminal itself: slash
 * commands, or a message to dispatch.
 */
final class ChatLoop {
  static final List<String> COMMANDS = List.of("/history", "/reset", "/status", "/help", "/quit");
  static final String HELP =
      """
      Type a message for the legatus, or @name to talk to an agent (@vorenus @pullo: both).
        /history [N]        the last N messages of the log (default 20)
        /reset NAME | all   close a session; its next request starts fresh
        /status             each agent: status, session age, input tokens, messages
        /quit               leave (Ctrl-D works too)""";

  private final SessionEngine engine;
  private final MessageLog log;
  private final AgentDirectory agents;
  private final PrintWriter out;
  private final PrintWriter err;
  private final DispatchListener progress;
  private final String defaultAgent;

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

  /** Handles one line; returns false when the user asked to leave. */
  boolean handle(String line) {
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
    Replies.print(engine.handle(text, progress), out, err);
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
        case "/status" -> out.print(StatusTable.format(engine.status(), agents.problems()));
        case "/history" -> history(words);
        case "/reset" -> reset(words);
        default ->
            err.println(
                "Unknown command " + words[0] + ". Commands: " + String.join(", ", COMMANDS));
      }
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
    }
    out.flush();
    err.flush();
    return true;
  }

  private void history(String[] words) {
    int n = 20;
    if (words.length > 1) {
      try {
        n = Integer.parseInt(words[1]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Usage: /history [N], N a number from 1 to 10000");
      }
      if (n < 1 || n > 10_000) {
        throw new IllegalArgumentException("Usage: /history [N], N a number from 1 to 10000");
      }
    }
    List<Message> messages = log.history(n);
    if (messages.isEmpty()) {
      out.println("(the log is empty)");
    }
    messages.forEach(m -> out.print(MessageFormat.human(m)));
  }

  private void reset(String[] words) {
    if (words.length != 2) {
      throw new IllegalArgumentException("Usage: /reset NAME, or /reset all");
    }
    out.println(ResetCommand.describe(engine, words[1]));
  }
}
