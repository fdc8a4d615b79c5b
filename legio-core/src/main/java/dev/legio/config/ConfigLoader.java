package dev.legio.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads and validates {@code legio.toml}. Every key is optional and defaulted; an unknown key, a
 * wrong type or a value out of range is an error that names the file, the key and what was
 * expected. Environment variables: {@code LEGIO_DB_URL} overrides the store and its URL.
 *
 * <p>The file must be UTF-8 text ({@link ConfigFileText}); Jackson's TOML parser reads it into a
 * tree, and each section record of {@link LegioConfig} reads and checks its own keys from it
 * ({@link TomlTable}), so the defaults and the known keys live in the records only.
 */
public final class ConfigLoader {
  private static final TomlMapper TOML = new TomlMapper();

  private ConfigLoader() {}

  /** Loads {@code file}, with {@code env} as the environment. */
  public static LegioConfig load(Path file, Map<String, String> env) {
    TomlTable root = TomlTable.document(file, parse(file));
    LegioConfig config = read(root, file.toAbsolutePath().getParent(), env);
    root.rejectUnknownKeys();
    return config;
  }

  /**
   * Reads every section of the document {@code root}; {@code base} is the folder of the file and
   * {@code env} the environment (secrets and {@code LEGIO_DB_URL}).
   */
  static LegioConfig read(TomlTable root, Path base, Map<String, String> env) {
    int historyWindow =
        (int) root.integer("history_window", SessionSettings.DEFAULT_HISTORY_WINDOW, 0, 10_000);
    PraetoriumSettings praetorium = PraetoriumSettings.read(root.table("praetorium"), base, env);
    LegioConfig.Logging logging = LegioConfig.Logging.read(root.table("logging"), base);
    SessionSettings sessions = SessionSettings.read(root, historyWindow);
    TomlTable backendTable = root.table("backend");
    LegioConfig.Backend backend = LegioConfig.Backend.read(backendTable, env);
    ClaudeCliSettings claudeCli = ClaudeCliSettings.read(backendTable.table("claude_cli"), base);
    LegioConfig.Transcripts transcripts =
        LegioConfig.Transcripts.read(root.table("transcripts"), base);
    return new LegioConfig(
        historyWindow,
        praetorium,
        logging,
        sessions,
        backend,
        claudeCli,
        LegioConfig.Mcp.read(root.table("mcp")),
        transcripts,
        LegioConfig.Context.read(root.table("context")),
        LegioConfig.Memory.read(root.table("memory"), base),
        ServerSettings.read(root.table("server"), praetorium.maxMessageBytes()),
        UsageSettings.read(root.table("usage"), root.table("pricing")),
        LegatusSettings.read(root.table("legatus")),
        MemoriaSettings.read(root.table("memoria"), praetorium),
        SlackSettings.read(root.table("gateways").table("slack"), env),
        DiscordSettings.read(root.table("gateways").table("discord"), env),
        TelegramSettings.read(root.table("gateways"), env));
  }

  private static ObjectNode parse(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new ConfigException(file + " does not exist: create it with `legio init`");
    } catch (IOException e) {
      throw new ConfigException("cannot read " + file + ": " + e.getMessage(), e);
    }
    String text = ConfigFileText.decode(file, bytes);
    try {
      JsonNode root = TOML.readTree(text);
      return root == null || root.isMissingNode() ? TOML.createObjectNode() : (ObjectNode) root;
    } catch (JsonProcessingException e) {
      throw TomlSyntaxError.of(file, text, e);
    }
  }
}
