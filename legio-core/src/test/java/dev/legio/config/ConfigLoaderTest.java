package dev.legio.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir Path dir;

  private Path write(String toml) throws Exception {
    Path file = dir.resolve("legio.toml");
    Files.writeString(file, toml);
    return file;
  }

  @Test
  void theDocumentedTemplateStatesExactlyTheDefaults() throws Exception {
    WorkspaceInitializer.initialise(new Workspace(dir));
    LegioConfig fromTemplate = ConfigLoader.load(dir.resolve("legio.toml"), Map.of());
    LegioConfig fromEmptyFile = ConfigLoader.load(write(""), Map.of());

    assertThat(fromTemplate).isEqualTo(fromEmptyFile);
    assertThat(fromTemplate.historyWindow()).isEqualTo(50);
    assertThat(fromTemplate.praetorium().store()).isEqualTo(PraetoriumSettings.Store.SQLITE);
    assertThat(fromTemplate.praetorium().sqlitePath())
        .isEqualTo(dir.resolve("castra/praetorium.db"));
    assertThat(fromTemplate.praetorium().maxMessageBytes()).isEqualTo(1 << 20);
    assertThat(fromTemplate.logging().file()).isEqualTo(dir.resolve("castra/logs/legio.log"));
    assertThat(fromTemplate.sessions().maxInputTokens()).isEqualTo(150_000);
    assertThat(fromTemplate.sessions().idleTimeout()).isEqualTo(Duration.ofMinutes(30));
    assertThat(fromTemplate.sessions().reaperInterval()).isEqualTo(Duration.ofSeconds(60));
    assertThat(fromTemplate.sessions().cleanupAt()).isEqualTo(LocalTime.of(2, 0));
    assertThat(fromTemplate.sessions().condenseAfterTokens()).isEqualTo(50_000);
    assertThat(fromTemplate.sessions().ttlFor("ollama")).isEqualTo(Duration.ofDays(7));
    assertThat(fromTemplate.sessions().ttlFor("anthropic")).isEqualTo(Duration.ofDays(30));
    assertThat(fromTemplate.sessions().channels().maxSessions()).isEqualTo(100);
    assertThat(fromTemplate.sessions().channels().contextThresholdTokens()).isEqualTo(160_000);
    assertThat(fromTemplate.sessions().channels().roleFor("viewer")).isEqualTo("operator");
    assertThat(fromTemplate.sessions().channels().roleFor("telegram")).isEqualTo("chat");
    assertThat(fromTemplate.backend().kind()).isEqualTo("auto");
    assertThat(fromTemplate.backend()).isEqualTo(LegioConfig.Backend.of("auto"));
    assertThat(fromTemplate.mcp()).isEqualTo(new LegioConfig.Mcp(true, "127.0.0.1", 8740));
    assertThat(fromTemplate.transcripts().dir()).isEqualTo(dir.resolve("castra/transcripts"));
    ClaudeCliSettings cli = fromTemplate.claudeCli();
    assertThat(cli.binary()).isEqualTo("claude");
    assertThat(cli.perTurn()).isFalse();
    assertThat(cli.permissionMode()).isEqualTo("default");
    assertThat(cli.allowedTools()).isEmpty();
    assertThat(cli.turnTimeout()).isEqualTo(Duration.ofSeconds(600));
    assertThat(cli.mcpConfig()).isNull();
    assertThat(cli.hideSecretsFromAgents()).isTrue();
    assertThat(fromTemplate.context()).isEqualTo(new LegioConfig.Context(true, 0.9, 50_000, 10, 3));
    assertThat(fromTemplate.legatus()).isEqualTo(new LegatusSettings(true, 4_000));
    assertThat(fromTemplate.memory())
        .isEqualTo(
            new LegioConfig.Memory(
                dir.resolve("castra/memory"), true, 20, 3, 24, 5, Duration.ofHours(1), 200));
  }

  @Test
  void condenseAfterTokensIsReadAndZeroTurnsCondensingOff() throws Exception {
    assertThat(
            ConfigLoader.load(write("[sessions]\ncondense_after_tokens = 80000\n"), Map.of())
                .sessions()
                .condenseAfterTokens())
        .isEqualTo(80_000);
    assertThat(
            ConfigLoader.load(write("[sessions]\ncondense_after_tokens = 0\n"), Map.of())
                .sessions()
                .condenseAfterTokens())
        .isZero();
  }

  @Test
  void theTemplateDocumentsEveryKeyTheRecordsRead() throws Exception {
    TomlTable empty =
        TomlTable.document(dir.resolve("legio.toml"), new TomlMapper().createObjectNode());
    ConfigLoader.read(empty, dir, Map.of());
    WorkspaceInitializer.initialise(new Workspace(dir));
    JsonNode template = new TomlMapper().readTree(dir.resolve("legio.toml").toFile());

    Map<String, Set<String>> known = empty.keysRead();
    assertThat(known)
        .containsKeys(
            "", "praetorium", "backend.claude_cli", "sessions", "memory", "legatus", "memoria");
    known.forEach(
        (table, keys) -> {
          JsonNode inTemplate =
              table.isEmpty() ? template : template.at("/" + table.replace('.', '/'));
          Set<String> documented = new TreeSet<>();
          inTemplate.fieldNames().forEachRemaining(documented::add);
          if (table.equals("sessions.ttl_days")) {
            assertThat(keys).as(table).containsAll(documented);
          } else {
            assertThat(documented).as("keys of [%s] in the template", table).isEqualTo(keys);
          }
        });
  }

  @Test
  void leasesLastLeaseTtlSecondsAndTheRetiredLockLeaseMinutesIsIgnoredWithAWarning()
      throws Exception {
    assertThat(ConfigLoader.load(write(""), Map.of()).sessions().leaseDuration())
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(
            ConfigLoader.load(write("[sessions]\nlease_ttl_seconds = 12"), Map.of())
                .sessions()
                .leaseDuration())
        .isEqualTo(Duration.ofSeconds(12));
    try (dev.legio.testing.LogCapture logs = new dev.legio.testing.LogCapture()) {
      LegioConfig old = ConfigLoader.load(write("[sessions]\nlock_lease_minutes = 15"), Map.of());
      assertThat(old.sessions().leaseDuration()).isEqualTo(Duration.ofSeconds(30));
      assertThat(logs.text())
          .contains("lock_lease_minutes is deprecated and ignored")
          .contains("lease_ttl_seconds");
    }
  }

  @Test
  void pricingTablesOverrideAndAddModelsAndUsageKeepDaysIsRead() throws Exception {
    LegioConfig config =
        ConfigLoader.load(
            write(
                """
                [usage]
                keep_days = 30
                [pricing."claude-sonnet-4-5"]
                input = 2.5
                [pricing."my-model"]
                input = 1
                output = 2.075
                cache_read = 0.1
                """),
            Map.of());
    assertThat(config.usage().keepDays()).isEqualTo(30);
    assertThat(config.usage().pricing())
        .containsEntry(
            "claude-sonnet-4-5", dev.legio.pricing.ModelPrice.of("2.5", "15", "0.30", "3.75"))
        .containsEntry("my-model", dev.legio.pricing.ModelPrice.of("1", "2.075", "0.1", "1"));
    assertThat(ConfigLoader.load(write(""), Map.of()).usage()).isEqualTo(UsageSettings.defaults());
  }

  @Test
  void aModelWithoutABuiltInPriceNeedsInputAndOutput() throws Exception {
    Path file =
        write(
            """
            [pricing."my-model"]
            input = 1
            """);
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("[pricing.my-model] output is required")
        .hasMessageContaining("no built-in price for \"my-model\"");
    Path negative =
        write(
            """
            [pricing."gpt-4o"]
            output = -1
            """);
    assertThatThrownBy(() -> ConfigLoader.load(negative, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("output: expected a number of 0 or more");
  }

  @Test
  void contextAndMemorySectionsAreReadAndChecked() throws Exception {
    LegioConfig config =
        ConfigLoader.load(
            write(
                """
                [context]
                auto_compact = false
                compact_threshold = 0.75
                tool_result_budget = 20000
                keep_recent_messages = 4
                max_compaction_failures = 5
                [memory]
                dir = "mem"
                extraction = false
                extraction_min_messages = 6
                extraction_min_tool_calls = 0
                dream_min_hours = 12
                dream_min_sessions = 2
                dream_lock_stale_minutes = 30
                index_max_lines = 50
                """),
            Map.of());
    assertThat(config.context()).isEqualTo(new LegioConfig.Context(false, 0.75, 20_000, 4, 5));
    assertThat(config.memory())
        .isEqualTo(
            new LegioConfig.Memory(
                dir.resolve("mem"), false, 6, 0, 12, 2, Duration.ofMinutes(30), 50));
    assertThatThrownBy(
            () -> ConfigLoader.load(write("[context]\ncompact_threshold = 1.5\n"), Map.of()))
        .hasMessageContaining(
            "[context] compact_threshold: expected a number above 0 and at most 1 (e.g. 0.9),"
                + " got 1.5");
    assertThatThrownBy(() -> ConfigLoader.load(write("[context]\nauto_compact = 1\n"), Map.of()))
        .hasMessageContaining("[context] auto_compact: expected true or false, got 1");
    assertThatThrownBy(() -> ConfigLoader.load(write("[memory]\nfolder = \"x\"\n"), Map.of()))
        .hasMessageContaining("[memory] unknown key 'folder'");
  }

  @Test
  void memoriaLivesInTheDatabaseByDefaultOnlyWhenThePraetoriumIsPostgres() throws Exception {
    assertThat(ConfigLoader.load(write(""), Map.of()).memoria().store())
        .isEqualTo(MemoriaSettings.Store.FILES);
    Path postgres = write("[praetorium]\nstore = \"postgres\"\n");
    assertThat(ConfigLoader.load(postgres, Map.of()).memoria().store())
        .isEqualTo(MemoriaSettings.Store.DATABASE);
    assertThat(
            ConfigLoader.load(
                    write(""), Map.of("LEGIO_DB_URL", "jdbc:postgresql://127.0.0.1:5432/legio"))
                .memoria()
                .store())
        .isEqualTo(MemoriaSettings.Store.DATABASE);
    assertThat(
            ConfigLoader.load(
                    write("[praetorium]\nstore = \"postgres\"\n[memoria]\nstore = \"files\"\n"),
                    Map.of())
                .memoria()
                .store())
        .isEqualTo(MemoriaSettings.Store.FILES);
    assertThat(ConfigLoader.load(write("[memoria]\nstore = \"database\"\n"), Map.of()).memoria())
        .isEqualTo(new MemoriaSettings(MemoriaSettings.Store.DATABASE));
  }

  @Test
  void theMcpSectionIsReadAndChecked() throws Exception {
    LegioConfig config =
        ConfigLoader.load(
            write("[mcp]\nhttp_enabled = false\nhttp_bind = \"0.0.0.0\"\nhttp_port = 0\n"),
            Map.of());
    assertThat(config.mcp()).isEqualTo(new LegioConfig.Mcp(false, "0.0.0.0", 0));
    assertThatThrownBy(() -> ConfigLoader.load(write("[mcp]\nhttp_port = 70000\n"), Map.of()))
        .hasMessageContaining("[mcp] http_port: expected an integer from 0 to 65535, got 70000");
    assertThatThrownBy(() -> ConfigLoader.load(write("[mcp]\nhttp_enabled = \"yes\"\n"), Map.of()))
        .hasMessageContaining("[mcp] http_enabled: expected true or false, got \"yes\"");
    assertThatThrownBy(() -> ConfigLoader.load(write("[mcp]\nport = 1\n"), Map.of()))
        .hasMessageContaining("[mcp] unknown key 'port'");
  }

  @Test
  void mcpAllowedOriginsAreReadAndEachMustBeAnOrigin() throws Exception {
    LegioConfig config =
        ConfigLoader.load(
            write("[mcp]\nallowed_origins = [\"https://console.example.com\"]\n"), Map.of());
    assertThat(config.mcp().allowedOrigins()).containsExactly("https://console.example.com");
    assertThat(ConfigLoader.load(write(""), Map.of()).mcp().allowedOrigins()).isEmpty();
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    write("[mcp]\nallowed_origins = [\"console.example.com/app\"]\n"), Map.of()))
        .hasMessageContaining("[mcp] allowed_origins: expected origins such as");
  }

  @Test
  void theTranscriptsFolderIsReadRelativeToTheFile() throws Exception {
    LegioConfig config =
        ConfigLoader.load(write("[transcripts]\ndir = \"../shared/t\"\n"), Map.of());
    assertThat(config.transcripts().dir()).isEqualTo(dir.getParent().resolve("shared/t"));
    assertThatThrownBy(() -> ConfigLoader.load(write("[transcripts]\nfolder = \"x\"\n"), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("[transcripts] unknown key 'folder'");
  }

  @Test
  void theTranscriptsProjectFolderIsAFolderNameOrLeftToTheWorkspacesPath() throws Exception {
    assertThat(ConfigLoader.load(write(""), Map.of()).transcripts().project()).isNull();
    assertThat(
            ConfigLoader.load(write("[transcripts]\nproject = \"\"\n"), Map.of())
                .transcripts()
                .project())
        .isNull();
    assertThat(
            ConfigLoader.load(write("[transcripts]\nproject = \"legion-prod\"\n"), Map.of())
                .transcripts()
                .project())
        .isEqualTo("legion-prod");
    for (String bad : List.of("../x", "a/b", "..", " ", "a b")) {
      assertThatThrownBy(
              () ->
                  ConfigLoader.load(write("[transcripts]\nproject = \"" + bad + "\"\n"), Map.of()))
          .as(bad)
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("[transcripts] project: expected a folder name");
    }
  }

  @Test
  void claudeCliSettingsAreReadAndChecked() throws Exception {
    LegioConfig config =
        ConfigLoader.load(
            write(
                """
                [backend]
                kind = "claude-cli"
                [backend.claude_cli]
                binary = "tools/claude"
                mode = "per_turn"
                permission_mode = "acceptEdits"
                allowed_tools = ["Read", "mcp__memoria"]
                turn_timeout_seconds = 90
                mcp_config = "castra/mcp.json"
                hide_secrets_from_agents = false
                """),
            Map.of());
    ClaudeCliSettings cli = config.claudeCli();
    assertThat(config.backend().kind()).isEqualTo("claude-cli");
    assertThat(cli.binary()).isEqualTo(dir.resolve("tools/claude").toString());
    assertThat(cli.perTurn()).isTrue();
    assertThat(cli.permissionMode()).isEqualTo("acceptEdits");
    assertThat(cli.allowedTools()).containsExactly("Read", "mcp__memoria");
    assertThat(cli.turnTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(cli.mcpConfig()).isEqualTo(dir.resolve("castra/mcp.json"));
    assertThat(cli.hideSecretsFromAgents()).isFalse();

    assertThatThrownBy(
            () ->
                ConfigLoader.load(write("[backend.claude_cli]\nmode = \"sometimes\"\n"), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("[backend.claude_cli] mode")
        .hasMessageContaining("\"persistent\", \"per_turn\"");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    write("[backend.claude_cli]\nallowed_tools = \"Read\"\n"), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("[backend.claude_cli] allowed_tools");
    assertThatThrownBy(
            () -> ConfigLoader.load(write("[backend.claude_cli]\nmodel = \"x\"\n"), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown key 'model'");
  }

  @Test
  void sessionAndChannelSettingsAreReadAndChecked() throws Exception {
    LegioConfig config =
        ConfigLoader.load(
            write(
                "session_idle_timeout_minutes = 5\n[sessions]\nresume_after_idle = true\n"
                    + "[sessions.ttl_days]\nollama = 2\n"
                    + "[channels.roles]\nmatrix = \"operator\"\n"),
            Map.of());
    assertThat(config.sessions().idleTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(config.sessions().ttlFor("ollama")).isEqualTo(Duration.ofDays(2));
    assertThat(config.sessions().resumeAfterIdle()).isTrue();
    assertThat(SessionSettings.defaults().resumeAfterIdle()).isFalse();
    assertThat(config.sessions().channels().roleFor("matrix")).isEqualTo("operator");
    assertThat(config.sessions().channels().roleFor("irc")).isEqualTo("chat");

    Path badTime = write("[sessions]\ncleanup_at = \"2am\"\n");
    assertThatThrownBy(() -> ConfigLoader.load(badTime, Map.of()))
        .hasMessageContaining("[sessions] cleanup_at: expected a time of day in UTC as \"HH:MM\"");
    Path badRole = write("[channels.roles]\ntelegram = \"root\"\n");
    assertThatThrownBy(() -> ConfigLoader.load(badRole, Map.of()))
        .hasMessageContaining("[channels.roles] telegram: expected one of \"operator\", \"chat\"");
    Path badKind = write("[backend]\nkind = \"gpt\"\n");
    assertThatThrownBy(() -> ConfigLoader.load(badKind, Map.of()))
        .hasMessageContaining("[backend] kind: expected one of \"auto\", \"offline\"");
  }

  @Test
  void backendKeysAreReadAndTheApiKeyComesOnlyFromTheEnvironment() throws Exception {
    Path file =
        write(
            "[backend]\nkind = \"openai\"\nmodel = \"qwen2.5\"\n"
                + "base_url = \"http://gpu:8000/v1\"\napi_key_env = \"VLLM_KEY\"\n"
                + "connect_timeout_seconds = 3\nrequest_timeout_seconds = 90\nmax_retries = 0\n"
                + "summarise_after_tokens = 50000\ncount_tokens = true\nkeep_alive = \"1h\"\n"
                + "[backend.context_windows]\n\"qwen2.5\" = 32768\n");
    LegioConfig.Backend b =
        ConfigLoader.load(file, Map.of("VLLM_KEY", "sk-vllm-secret", "OPENAI_API_KEY", "no"))
            .backend();
    assertThat(b.kind()).isEqualTo("openai");
    assertThat(b.model()).isEqualTo("qwen2.5");
    assertThat(b.baseUrl()).isEqualTo("http://gpu:8000/v1");
    assertThat(b.apiKey()).isEqualTo("sk-vllm-secret");
    assertThat(b.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(b.requestTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(b.maxRetries()).isZero();
    assertThat(b.summariseAfterTokens()).isEqualTo(50_000);
    assertThat(b.countTokens()).isTrue();
    assertThat(b.keepAlive()).isEqualTo("1h");
    assertThat(b.contextWindows()).containsEntry("qwen2.5", 32768);
    assertThat(b.toString()).doesNotContain("sk-vllm-secret");

    LegioConfig.Backend anthropic =
        ConfigLoader.load(
                write("[backend]\nkind = \"anthropic\"\n"), Map.of("ANTHROPIC_API_KEY", "sk-ant-1"))
            .backend();
    assertThat(anthropic.apiKey()).isEqualTo("sk-ant-1");
    LegioConfig.Backend ollama =
        ConfigLoader.load(write("[backend]\nkind = \"ollama\"\n"), Map.of("ANTHROPIC_API_KEY", "x"))
            .backend();
    assertThat(ollama.apiKey()).isNull();
  }

  @Test
  void badBackendValuesNameTheKey() throws Exception {
    Path url = write("[backend]\nbase_url = \"localhost:11434\"\n");
    assertThatThrownBy(() -> ConfigLoader.load(url, Map.of()))
        .hasMessageContaining("[backend] base_url: expected an http:// or https:// URL");
    Path keepAlive = write("[backend]\nkeep_alive = \"forever\"\n");
    assertThatThrownBy(() -> ConfigLoader.load(keepAlive, Map.of()))
        .hasMessageContaining("[backend] keep_alive: expected a duration");
    Path window = write("[backend.context_windows]\nllama = \"big\"\n");
    assertThatThrownBy(() -> ConfigLoader.load(window, Map.of()))
        .hasMessageContaining("[backend.context_windows] llama: expected an integer");
    Path count = write("[backend]\ncount_tokens = \"yes\"\n");
    assertThatThrownBy(() -> ConfigLoader.load(count, Map.of()))
        .hasMessageContaining("[backend] count_tokens: expected true or false");
  }

  @Test
  void aWrongTypeNamesTheFileTheKeyAndWhatWasExpected() throws Exception {
    Path file = write("history_window = \"fifty\"\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessage(file + ": history_window: expected an integer from 0 to 10000, got \"fifty\"");
  }

  @Test
  void aValueOutOfRangeOrNotAmongTheChoicesIsAnError() throws Exception {
    Path file = write("[praetorium]\npool_size = 0\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
        .hasMessageContaining("[praetorium] pool_size: expected an integer from 1 to 64, got 0");
    write("[praetorium]\nstore = \"mysql\"\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
        .hasMessageContaining(
            "[praetorium] store: expected one of \"sqlite\", \"postgres\", got \"mysql\"");
  }

  @Test
  void anUnknownKeyIsAnErrorListingTheKnownOnes() throws Exception {
    Path file = write("histroy_window = 10\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
        .hasMessageContaining(file + ": unknown key 'histroy_window'; known keys here:")
        .hasMessageContaining("history_window");
  }

  @Test
  void invalidTomlSaysWhere() throws Exception {
    Path file = write("history_window = 50\n[praetorium\nstore = \"sqlite\"\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
        .hasMessageStartingWith(file + " is not valid TOML at line 2");
  }

  @Test
  void legioDbUrlSelectsPostgresAndThePasswordComesFromTheEnvironmentOnly() throws Exception {
    Path file = write("[praetorium]\npostgres_user = \"legio\"\n");
    LegioConfig config =
        ConfigLoader.load(
            file,
            Map.of(
                "LEGIO_DB_URL", "jdbc:postgresql://db.internal:5432/legio",
                "LEGIO_DB_PASSWORD", "s3cret"));
    assertThat(config.praetorium().store()).isEqualTo(PraetoriumSettings.Store.POSTGRES);
    assertThat(config.praetorium().postgresUrl())
        .isEqualTo("jdbc:postgresql://db.internal:5432/legio");
    assertThat(config.praetorium().postgresPassword()).isEqualTo("s3cret");
    assertThat(config.toString()).doesNotContain("s3cret");
  }

  @Test
  void aLegioDbUrlThatIsNotJdbcIsRefusedWithoutShowingItsPassword() throws Exception {
    Path file = write("");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(file, Map.of("LEGIO_DB_URL", "postgres://x/db?password=hunter2")))
        .hasMessageContaining("LEGIO_DB_URL: expected a JDBC URL starting with jdbc:postgresql:")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void aMissingFileSaysHowToCreateIt() {
    assertThatThrownBy(() -> ConfigLoader.load(dir.resolve("nope/legio.toml"), Map.of()))
        .hasMessageContaining("does not exist: create it with `legio init`");
  }
}
