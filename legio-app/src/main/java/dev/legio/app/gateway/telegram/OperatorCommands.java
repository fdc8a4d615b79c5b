package dev.legio.app.gateway.telegram;

import dev.legio.agents.AgentDirectory;
import dev.legio.app.text.OperatorReplies;
import dev.legio.log.MessageLog;
import dev.legio.session.SessionBusyException;
import dev.legio.session.SessionEngine;
import dev.legio.usage.UsageLedger;

/**
 * The operator's commands in a private chat with the bot, answered as {@code legio chat} answers
 * them ({@link OperatorReplies}). A bad argument is an {@link IllegalArgumentException} whose
 * message is the usage line.
 */
public interface OperatorCommands {
  /** {@code /history [N]}. */
  String history(String[] words);

  /** {@code /reset NAME|all}. */
  String reset(String[] words);

  /** {@code /status}. */
  String status();

  /** The commands over Legio's log, engine, agents and usage ledger. */
  static OperatorCommands of(
      MessageLog log, SessionEngine engine, AgentDirectory agents, UsageLedger usage) {
    return new OperatorCommands() {
      @Override
      public String history(String[] words) {
        return OperatorReplies.history(log, words);
      }

      @Override
      public String reset(String[] words) {
        try {
          return OperatorReplies.reset(engine, words);
        } catch (SessionBusyException e) {
          return e.getMessage();
        }
      }

      @Override
      public String status() {
        return OperatorReplies.status(engine, agents, usage);
      }
    };
  }
}
