package dev.legio.app;

import dev.legio.config.LegioConfig;
import java.util.Set;
import java.util.TreeSet;

/**
 * What of Legio's own environment the Claude Code CLI does not get.
 *
 * <p>Rule: the variables that hold the chat gateways' secrets (Telegram's bot token and webhook
 * secret, Slack's signing secret and bot token, Discord's bot token, by the names {@code
 * [gateways.*]} gives them) are withheld: an agent with shell tools could read its process's
 * environment, and nothing the CLI runs needs them ({@code legio mcp}, which the CLI starts for the
 * agents' tools where no server runs, runs no gateway). The model back-ends' keys and the
 * database's password stay: the CLI may use Anthropic's key, and {@code legio mcp} (outside {@code
 * legio serve}, whose CLI sessions use its own {@code /mcp} instead) reaches the praetorium and,
 * for the legatus's dispatch, the main back-end.
 */
final class CliEnvironment {
  private CliEnvironment() {}

  /** The variables withheld from the CLI under {@code config}. */
  static Set<String> withheld(LegioConfig config) {
    Set<String> names = new TreeSet<>();
    names.add(config.telegram().tokenEnv());
    names.add(config.telegram().webhookSecretEnv());
    names.add(config.slack().signingSecretEnv());
    names.add(config.slack().botTokenEnv());
    names.add(config.discord().botTokenEnv());
    names.removeIf(name -> name == null || name.isBlank());
    return names;
  }
}
