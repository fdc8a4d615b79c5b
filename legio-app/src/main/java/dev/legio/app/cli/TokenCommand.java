package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code legio token create|list|revoke}: the bearer tokens of the Legio server's API. */
@Command(
    name = "token",
    mixinStandardHelpOptions = true,
    description = {
      "The bearer tokens of the Legio API (`legio serve`), kept hashed in castra/server/tokens.json"
          + " (owner-only).",
      "Roles: operator speaks as caesar and may use every endpoint; gateway may only post to the"
          + " channel sessions of its --sources; task may only use task sessions, those whose"
          + " session key starts with one of its --keys when it has some (every key when it has"
          + " none)."
    },
    subcommands = {
      TokenCommand.Create.class,
      TokenCommand.ListTokens.class,
      TokenCommand.Revoke.class
    })
final class TokenCommand implements Runnable {
  @ParentCommand LegioCommand root;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  ApiTokens tokens() {
    try (LegioApp app = root.app()) {
      return new ApiTokens(app.workspace().castra());
    }
  }

  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description = "Make a token and print it once (only its hash is kept).")
  static final class Create implements Callable<Integer> {
    @ParentCommand TokenCommand token;

    @Parameters(
        paramLabel = "NAME",
        description = "The token's name, e.g. console or telegram-bot.")
    String name;

    @Option(
        names = "--role",
        required = true,
        paramLabel = "ROLE",
        description = "operator, gateway, task or metrics (a scraper: GET /metrics only).")
    String role;

    @Option(
        names = "--sources",
        split = ",",
        paramLabel = "SOURCE",
        description = "For a gateway: the channel sources it may post to, e.g. telegram,slack.")
    List<String> sources = new ArrayList<>();

    @Option(
        names = "--keys",
        split = ",",
        paramLabel = "PREFIX",
        description =
            "For a task token: the session key prefixes it reaches, e.g. campaign:,ticket:"
                + " (compared exactly; without --keys it reaches every key).")
    List<String> keys;

    @Override
    public Integer call() {
      Role parsed = Role.parse(role);
      ApiTokens.Created created = token.tokens().create(name, parsed, sources, keys);
      token.root.out.println(created.secret());
      token.root.err.println(
          "Token '"
              + name
              + "' ("
              + parsed.label()
              + (sources.isEmpty() ? "" : ", sources " + String.join(",", sources))
              + (parsed == Role.TASK ? ", " + reach(created.token()) : "")
              + ") created. It is shown only now: keep it somewhere safe; send it as"
              + " Authorization: Bearer TOKEN.");
      token.root.out.flush();
      token.root.err.flush();
      return 0;
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "The tokens (no secrets).")
  static final class ListTokens implements Callable<Integer> {
    @ParentCommand TokenCommand token;

    @Override
    public Integer call() {
      List<ApiTokens.ApiToken> all = token.tokens().list();
      if (all.isEmpty()) {
        token.root.out.println("No tokens yet: legio token create NAME --role operator");
      } else {
        String format = "%-24s  %-8s  %-24s  %-24s  %s%n";
        token.root.out.printf(format, "NAME", "ROLE", "SOURCES", "KEYS", "CREATED");
        for (ApiTokens.ApiToken t : all) {
          token.root.out.printf(
              format,
              t.name(),
              t.role(),
              t.sources().isEmpty() ? "-" : String.join(",", t.sources()),
              Role.TASK.label().equals(t.role()) ? keysOf(t) : "-",
              t.created());
        }
      }
      token.root.out.flush();
      return 0;
    }
  }

  /** A task token's reach, as {@code token create} says it: its prefixes, or every key. */
  static String reach(ApiTokens.ApiToken t) {
    return t.keyPrefixes().everyKey()
        ? "every session key"
        : "key prefixes " + String.join(",", t.keyPrefixes().prefixes());
  }

  /** A task token's KEYS column: its prefixes, or {@code (every key)}. */
  static String keysOf(ApiTokens.ApiToken t) {
    return t.keyPrefixes().everyKey()
        ? "(every key)"
        : String.join(",", t.keyPrefixes().prefixes());
  }

  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      description = "Delete a token; a running server refuses it from its next request.")
  static final class Revoke implements Callable<Integer> {
    @ParentCommand TokenCommand token;

    @Parameters(paramLabel = "NAME", description = "The token's name.")
    String name;

    @Override
    public Integer call() {
      if (!token.tokens().revoke(name)) {
        throw new IllegalArgumentException(
            "no token named '" + name + "' (legio token list shows them)");
      }
      token.root.out.println("Token '" + name + "' revoked.");
      token.root.out.flush();
      return 0;
    }
  }
}
