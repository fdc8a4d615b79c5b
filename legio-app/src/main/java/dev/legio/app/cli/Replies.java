package dev.legio.app.cli;

import dev.legio.app.text.MessageFormat;
import dev.legio.backend.BackendEvent;
import dev.legio.secrets.SecretRedactor;
import dev.legio.session.DispatchListener;
import dev.legio.session.Outcome;
import dev.legio.session.Reply;
import dev.legio.session.SessionEngine;
import dev.legio.usage.UsageRecorder;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * How replies and progress are printed by {@code legio say} and {@code legio chat}.
 *
 * <p>A turn whose usage the ledger could not record still has its reply printed (the turn
 * succeeded), but the command then says so in one line on standard error and exits with {@link
 * LegioCommand#FAILURE}: a usage row lost must not pass silently ({@link #unrecordedUsage}). The
 * usage is recorded off the turn's path, so {@code legio chat} says so at the next line it reads,
 * and at the end for turns whose usage failed after the last line ({@link #newlyUnrecordedUsage}).
 */
final class Replies {
  private Replies() {}

  /** Prints each reply under its attribution header. Returns the exit code the outcome deserves. */
  static int print(Outcome outcome, PrintWriter out, PrintWriter err) {
    if (outcome.refusal() != null) {
      err.println("legio: " + outcome.refusal());
      return LegioCommand.USAGE;
    }
    boolean first = true;
    for (Reply reply : outcome.replies()) {
      if (!first) {
        out.println();
      }
      first = false;
      out.println(SessionEngine.header(reply));
      out.println(MessageFormat.safeText(reply.text()));
    }
    out.flush();
    return outcome.ok() ? 0 : LegioCommand.FAILURE;
  }

  /**
   * Says, in one line on {@code err}, that the usage of some turns could not be recorded, if so.
   * Returns the exit code: {@code code}, or {@link LegioCommand#FAILURE} when usage went unrecorded
   * and {@code code} was 0.
   */
  static int unrecordedUsage(
      java.util.Optional<UsageRecorder.Unrecorded> unrecorded, int code, PrintWriter err) {
    if (unrecorded.isEmpty()) {
      return code;
    }
    UsageRecorder.Unrecorded u = unrecorded.get();
    String whose =
        u.turns() == 1 ? "the turn of " + u.owner() : u.turns() + " turns (" + u.owner() + "...)";
    err.println("legio: the replies above are complete, but the usage of " + whose + unrecorded(u));
    err.flush();
    return code == 0 ? LegioCommand.FAILURE : code;
  }

  /**
   * For {@code legio chat}, which runs many turns: says in one line on {@code err} how many turns
   * since {@code reported} could not have their usage recorded, if any. Returns the turns reported
   * so far.
   */
  static int newlyUnrecordedUsage(
      java.util.Optional<UsageRecorder.Unrecorded> unrecorded, int reported, PrintWriter err) {
    if (unrecorded.isEmpty() || unrecorded.get().turns() <= reported) {
      return reported;
    }
    UsageRecorder.Unrecorded u = unrecorded.get();
    int turns = u.turns() - reported;
    err.println(
        "legio: the replies are complete, but the usage of "
            + (reported == 0 ? "" : "another ")
            + (turns == 1 ? (reported == 0 ? "a turn" : "turn") : turns + " turns")
            + unrecorded(u));
    err.flush();
    return u.turns();
  }

  private static String unrecorded(UsageRecorder.Unrecorded u) {
    return " could not be recorded ("
        + SecretRedactor.redact(u.reason())
        + "); legio usage will not count it. See the log file; if the praetorium is damaged,"
        + " restore it from a backup.";
  }

  /**
   * Prints status lines ({@code [vorenus] ⏳ Thinking...}) and compaction lines as agents report
   * them.
   */
  static DispatchListener statusLines(PrintWriter err) {
    return (agent, event) -> {
      String line = progressLine(agent, event);
      if (line != null) {
        synchronized (err) {
          err.println(line);
          err.flush();
        }
      }
    };
  }

  /**
   * The progress line a back-end event deserves ({@code [vorenus] ⏳ Thinking...}, {@code [vorenus]
   * 📜 Compacted 42 messages: 150,000 tokens freed}), or null for events that print none (answer
   * text, tool calls).
   */
  static String progressLine(String agent, BackendEvent event) {
    String text =
        switch (event) {
          case BackendEvent.Status status -> status.text();
          case BackendEvent.CompactionStarted started ->
              String.format(
                  Locale.ROOT,
                  "📜 Compacting the conversation (%,d tokens, over %,d): summarising %d older"
                      + " messages...",
                  started.tokens(),
                  started.threshold(),
                  started.messages());
          case BackendEvent.CompactionEnded ended ->
              String.format(
                  Locale.ROOT,
                  "📜 Compacted %d messages into a summary: %,d tokens freed (%,d → %,d)",
                  ended.messagesCompacted(),
                  ended.tokensFreed(),
                  ended.tokensBefore(),
                  ended.tokensAfter());
          case BackendEvent.CompactionFailed failed ->
              "⚠ Compacting the conversation failed ("
                  + failed.consecutiveFailures()
                  + " in a row): "
                  + failed.reason()
                  + "; going on with the whole conversation"
                  + (failed.disabled() ? "; auto-compact is now off for this session" : "");
          case BackendEvent.Text t -> null;
          case BackendEvent.ToolCall c -> null;
        };
    return text == null ? null : "[" + agent + "] " + MessageFormat.safeText(text);
  }
}
