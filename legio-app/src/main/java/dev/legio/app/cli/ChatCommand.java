package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.text.MessageFormat;
import dev.legio.log.Names;
import dev.legio.session.DispatchListener;
import dev.legio.session.SessionEngine;
import dev.legio.transcript.Transcript;
import dev.legio.transcript.TranscriptEntry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "chat",
    mixinStandardHelpOptions = true,
    description = {
      "Talk with the legatus and the agents as caesar, in an interactive terminal.",
      "Line editing and history (kept in castra/.chat_history, readable by its owner only); Tab completes @agent names and"
          + " /commands. Type /help for the commands."
    })
final class ChatCommand implements Callable<Integer> {
  private static final int RESUME_SHOWN = 10;
  private static final int RESUME_CHARS = 600;

  @ParentCommand LegioCommand root;

  @Option(
      names = "--resume",
      arity = "0..1",
      fallbackValue = "",
      paramLabel = "ID",
      description =
          "Continue a session: show the end of its transcript, resume that conversation in the"
              + " back-end (also one the Claude Code CLI wrote) and send lines without an @mention"
              + " to its agent. Without ID: the most recently changed session.")
  String resume;

  @Override
  public Integer call() {
    LegioApp app = root.longRunningApp();
    ChatLoop loop;
    try (app;
        Terminal terminal = terminal()) {
      PrintWriter screen = terminal.writer();
      ChatHistoryFile history = ChatHistoryFile.of(app.workspace().castra());
      LineReader reader =
          LineReaderBuilder.builder()
              .terminal(terminal)
              .appName("legio")
              .completer(completer(app))
              .history(history)
              .variable(LineReader.HISTORY_FILE, history.file())
              .build();
      DispatchListener progress =
          (agent, event) -> {
            String line = Replies.progressLine(agent, event);
            if (line != null) {
              synchronized (screen) {
                if (reader.isReading()) {
                  reader.printAbove(line);
                } else {
                  screen.println(line);
                  screen.flush();
                }
              }
            }
          };
      String resumedAgent = resume == null ? null : resume(app, screen);
      loop =
          new ChatLoop(
                  app.engine(),
                  app.messageLog(),
                  app.agents(),
                  screen,
                  screen,
                  progress,
                  resumedAgent)
              .showingCosts(app.usage())
              .withHistoryEditor(app.historyEditor(), app.sessions())
              .reportingUnrecordedUsage(app::unrecordedUsage);
      screen.println(
          "Legio chat: "
              + app.workspace().root()
              + " · "
              + app.backendChoice()
              + " · agents: "
              + String.join(", ", app.engine().knownAgents())
              + ". /help for commands.");
      screen.flush();
      // Piped input is read as plain lines (linear in their size); a terminal through the editor.
      BufferedReader piped =
          root.context.terminalInput() == null && isPiped(terminal)
              ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
              : null;
      while (true) {
        String line;
        if (piped != null) {
          line = piped.readLine();
          if (line == null) {
            break;
          }
        } else {
          try {
            line = reader.readLine("caesar> ");
          } catch (UserInterruptException e) {
            continue; // Ctrl-C clears the line
          } catch (EndOfFileException e) {
            break;
          }
        }
        if (!loop.handle(line)) {
          break;
        }
      }
      screen.flush(); // before the terminal closes: nothing shown is left in a buffer
      if (screen.checkError()) {
        // A PrintWriter swallows the failures of its stream: say that output was lost.
        root.err.println("legio chat: the terminal refused some output; it may be incomplete");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the terminal: " + e.getMessage(), e);
    }
    // Closed: the usage ledger has been told of every turn; say what the chat could not say yet.
    return loop.reportUnrecordedUsage(root.err) ? LegioCommand.FAILURE : 0;
  }

  /**
   * Shows the end of the transcript being resumed; returns the agent its lines go to (null: the
   * legatus, as without --resume).
   */
  private String resume(LegioApp app, PrintWriter screen) {
    Transcript t = SessionsCommand.find(app.transcripts(), resume);
    List<TranscriptEntry> entries = t.entries();
    String owner = t.owner();
    screen.println(
        "Resuming session "
            + t.sessionId()
            + (owner == null ? "" : " of " + MessageFormat.safeText(owner))
            + " ("
            + entries.size()
            + " messages; the last "
            + Math.min(RESUME_SHOWN, entries.size())
            + " below).");
    for (TranscriptEntry e :
        entries.subList(Math.max(0, entries.size() - RESUME_SHOWN), entries.size())) {
      SessionsCommand.print(e, screen, RESUME_CHARS);
    }
    if (t.report().hasProblems()) {
      screen.println("(" + t.report().problems() + ")");
    }
    String agent = owner != null && app.engine().knownAgents().contains(owner) ? owner : null;
    if (owner != null && agent == null) {
      screen.println(
          "(" + MessageFormat.safeText(owner) + " is not an agent here: lines go to the legatus.)");
    }
    String to = agent == null ? Names.LEGATUS : agent;
    try {
      SessionEngine.Resumed resumed = app.engine().resume(t.sessionId(), to);
      screen.println(
          "Lines without an @mention go to "
              + resumed.owner()
              + ", continuing this conversation (the back-end resumes "
              + resumed.backendSessionId()
              + "; the next turn carries only what is new).");
    } catch (IllegalArgumentException e) {
      screen.println(
          "Lines without an @mention go to "
              + to
              + "; this conversation cannot be continued ("
              + e.getMessage()
              + "), so its next turn starts a new session with the context restored from the"
              + " praetorium.");
    }
    screen.flush();
    return Names.LEGATUS.equals(agent) ? null : agent;
  }

  /** Whether the system terminal is no terminal at all (input from a pipe or a file). */
  private static boolean isPiped(Terminal terminal) {
    return Terminal.TYPE_DUMB.equals(terminal.getType())
        || Terminal.TYPE_DUMB_COLOR.equals(terminal.getType());
  }

  private Terminal terminal() throws IOException {
    if (root.context.terminalInput() != null) {
      // Streams given (a test, or a program driving the chat): a dumb terminal that writes to
      // them directly. The builder would open a pseudo-terminal whose pump threads copy the output
      // after the chat has returned, so the caller could read it before it is all there.
      return new org.jline.terminal.impl.DumbTerminal(
          root.context.terminalInput(), root.context.terminalOutput());
    }
    return ChatTerminal.system();
  }

  private static Completer completer(LegioApp app) {
    return (reader, line, candidates) -> {
      String word = line.word();
      List<Candidate> found = new ArrayList<>();
      if (word.startsWith("/") && line.wordIndex() == 0) {
        ChatLoop.COMMANDS.forEach(c -> found.add(new Candidate(c)));
      } else if (word.startsWith("@")) {
        app.engine().knownAgents().forEach(n -> found.add(new Candidate("@" + n)));
      } else if (line.wordIndex() == 1 && line.words().get(0).equals("/reset")) {
        app.engine().knownAgents().forEach(n -> found.add(new Candidate(n)));
        found.add(new Candidate("all"));
      }
      candidates.addAll(found);
    };
  }
}
