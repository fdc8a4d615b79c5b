package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.gateway.discord.AskCommand;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.config.DiscordSettings;
import dev.legio.secrets.SecretRedactor;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code legio gateways ...}: set-up steps of the chat gateways that a platform needs once. */
@Command(
    name = "gateways",
    mixinStandardHelpOptions = true,
    description = "Set-up steps of the chat gateways ([gateways.*] in legio.toml).",
    subcommands = {GatewaysCommand.Discord.class})
final class GatewaysCommand implements Runnable {
  @ParentCommand LegioCommand root;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(
      name = "discord",
      mixinStandardHelpOptions = true,
      description = "The Discord gateway ([gateways.discord]).",
      subcommands = {Register.class})
  static final class Discord implements Runnable {
    @ParentCommand GatewaysCommand gateways;

    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
      spec.commandLine().usage(spec.commandLine().getOut());
    }
  }

  @Command(
      name = "register",
      mixinStandardHelpOptions = true,
      description = {
        "Register the slash command /ask text:<...> with Discord for the application"
            + " [gateways.discord] application_id names, with the bot token from the variable"
            + " bot_token_env names (DISCORD_BOT_TOKEN by default).",
        "Run it once (again after changing application). Global commands can take a while to"
            + " appear in Discord's clients."
      })
  static final class Register implements Callable<Integer> {
    @ParentCommand Discord discord;

    @Override
    public Integer call() {
      LegioCommand root = discord.gateways.root;
      DiscordSettings settings;
      try (LegioApp app = root.app()) {
        settings = app.config().discord();
      }
      try {
        String id = AskCommand.register(settings, RetryPolicy.Sleeper.REAL);
        root.out.println(
            "Registered /"
                + AskCommand.NAME
                + " (command "
                + id
                + ") for application "
                + settings.applicationId()
                + ". Set the Interactions Endpoint URL to https://YOUR-HOST/gateways/discord/interactions"
                + " on the Developer Portal's General Information page.");
        root.out.flush();
        return 0;
      } catch (IllegalStateException e) {
        root.err.println("legio: " + SecretRedactor.redact(e.getMessage()));
        root.err.flush();
        return LegioCommand.FAILURE;
      }
    }
  }
}
