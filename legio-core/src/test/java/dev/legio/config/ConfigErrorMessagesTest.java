package dev.legio.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pins every error message {@code legio.toml} can produce, word for word: each names the file, the
 * key and what was expected. {@code FILE} in an expected message stands for the file's path.
 */
class ConfigErrorMessagesTest {
  @TempDir Path dir;

  private static final String TOP_KEYS =
      "backend, channels, context, gateways, history_window, legatus, logging, mcp, memoria,"
          + " memory, praetorium,"
          + " pricing, server, session_idle_timeout_minutes, sessions, transcripts, usage";

  private static final String USER_INFO_HINT =
      "its user name or password holds a character a URL cannot hold as it is (a space, '@', '/',"
          + " ':', '#'); percent-encode it (a space as %20, '@' as %40), or better, put the"
          + " credential in the API key's variable (api_key_env) and leave it out of the URL";

  static Stream<Arguments> messages() {
    return Stream.of(
        // top level
        of(
            "histroy_window = 10",
            "FILE: unknown key 'histroy_window'; known keys here: " + TOP_KEYS),
        of(
            "history_window = \"fifty\"",
            "FILE: history_window: expected an integer from 0 to 10000, got \"fifty\""),
        of(
            "history_window = 10001",
            "FILE: history_window: expected an integer from 0 to 10000, got 10001"),
        of(
            "history_window = 1.5",
            "FILE: history_window: expected an integer from 0 to 10000, got 1.5"),
        of(
            "session_idle_timeout_minutes = 0",
            "FILE: session_idle_timeout_minutes: expected an integer from 1 to 10080, got 0"),
        of("praetorium = 1", "FILE: praetorium must be a table ([praetorium]), got 1"),
        of(
            "[usage]\nkeep_days = 0",
            "FILE: [usage] keep_days: expected an integer from 1 to 100000, got 0"),
        of(
            "[pricing.\"gpt-4o\"]\ninput = \"cheap\"",
            "FILE: [pricing.gpt-4o] input: expected a number of 0 or more (e.g. 2.50), got \"cheap\""),
        of(
            "[pricing.\"gpt-4o\"]\ninput = nan",
            "FILE: [pricing.gpt-4o] input: expected a number of 0 or more (e.g. 2.50), got nan"),
        of(
            "[pricing.\"gpt-4o\"]\noutput = inf",
            "FILE: [pricing.gpt-4o] output: expected a number of 0 or more (e.g. 2.50), got inf"),
        of(
            "[pricing.\"gpt-4o\"]\ninptu = 1",
            "FILE: [pricing.gpt-4o] unknown key 'inptu'; known keys here: cache_read, cache_write,"
                + " input, output"),
        of(
            "[server]\nadvertise_url = \"ftp://10.0.0.11\"",
            "FILE: [server] advertise_url: expected a URL such as \"http://10.0.0.11:8740\", got"
                + " \"ftp://10.0.0.11\""),
        of("logging = \"x\"", "FILE: logging must be a table ([logging]), got \"x\""),
        of("sessions = [1]", "FILE: sessions must be a table ([sessions]), got [1]"),
        of("channels = true", "FILE: channels must be a table ([channels]), got true"),
        of("backend = 2", "FILE: backend must be a table ([backend]), got 2"),
        of("mcp = 2", "FILE: mcp must be a table ([mcp]), got 2"),
        of("transcripts = 2", "FILE: transcripts must be a table ([transcripts]), got 2"),
        of("context = 2", "FILE: context must be a table ([context]), got 2"),
        of("memory = 2", "FILE: memory must be a table ([memory]), got 2"),
        // [memoria]
        of(
            "[memoria]\nstore = \"mysql\"",
            "FILE: [memoria] store: expected one of \"auto\", \"files\", \"database\", got"
                + " \"mysql\""),
        of(
            "[memoria]\nstore = true",
            "FILE: [memoria] store: expected a string in double quotes, got true"),
        of(
            "[memoria]\nkind = \"files\"",
            "FILE: [memoria] unknown key 'kind'; known keys here: store"),
        // [praetorium]
        of(
            "[praetorium]\nsize = 1",
            "FILE: [praetorium] unknown key 'size'; known keys here: max_message_bytes, pool_size,"
                + " postgres_password_env, postgres_url, postgres_user, sqlite_path,"
                + " sqlite_synchronous, store"),
        of(
            "[praetorium]\nstore = \"mysql\"",
            "FILE: [praetorium] store: expected one of \"sqlite\", \"postgres\", got \"mysql\""),
        of(
            "[praetorium]\nstore = 1",
            "FILE: [praetorium] store: expected a string in double quotes, got 1"),
        of(
            "[praetorium]\nsqlite_path = 1",
            "FILE: [praetorium] sqlite_path: expected a string in double quotes, got 1"),
        of(
            "[praetorium]\nsqlite_synchronous = \"OFF\"",
            "FILE: [praetorium] sqlite_synchronous: expected one of \"normal\", \"full\", got \"off\""),
        of(
            "[praetorium]\npostgres_user = false",
            "FILE: [praetorium] postgres_user: expected a string in double quotes, got false"),
        of(
            "[praetorium]\npostgres_password_env = 3",
            "FILE: [praetorium] postgres_password_env: expected a string in double quotes, got 3"),
        of(
            "[praetorium]\npool_size = 0",
            "FILE: [praetorium] pool_size: expected an integer from 1 to 64, got 0"),
        of(
            "[praetorium]\nmax_message_bytes = 67108865",
            "FILE: [praetorium] max_message_bytes: expected an integer from 1 to 67108864, got 67108865"),
        of(
            "[praetorium]\nstore = \"postgres\"\npostgres_url = \"postgres://x\"",
            "FILE: [praetorium] postgres_url: expected a JDBC URL starting with jdbc:postgresql:,"
                + " got postgres://x"),
        of(
            "[praetorium]\nstore = \"postgres\"\npostgres_url = \"postgres://legio:S3cretPW42@db/x\"",
            "FILE: [praetorium] postgres_url: expected a JDBC URL starting with jdbc:postgresql:,"
                + " got postgres://***@db/x"),
        of(
            "[praetorium]\nstore = \"postgres\"\n"
                + "postgres_url = \"jdbc:postgresql://legio:S3cretPW42@db:5432/legio\"",
            "FILE: [praetorium] postgres_url: PostgreSQL's JDBC driver takes no user or password"
                + " before the host ('jdbc:postgresql://***@db:5432/legio'): write"
                + " jdbc:postgresql://HOST:PORT/DATABASE, the user in [praetorium] postgres_user,"
                + " and the password in the environment variable LEGIO_DB_PASSWORD (or the one"
                + " postgres_password_env names)"),
        of(
            "",
            Map.of("LEGIO_DB_URL", "jdbc:postgresql://legio:S3cretPW42@127.0.0.1:5432/legio"),
            "environment variable LEGIO_DB_URL: PostgreSQL's JDBC driver takes no user or password"
                + " before the host ('jdbc:postgresql://***@127.0.0.1:5432/legio'): write"
                + " jdbc:postgresql://HOST:PORT/DATABASE, the user in [praetorium] postgres_user,"
                + " and the password in the environment variable LEGIO_DB_PASSWORD (or the one"
                + " postgres_password_env names)"),
        // API keys
        of(
            "",
            Map.of("ANTHROPIC_API_KEY", "sk-ant-api03-abc\u00a0def"),
            "environment variable ANTHROPIC_API_KEY holds a character an API key cannot have"
                + " (U+00A0 at position 17): set it again with the key alone, as the provider's"
                + " console shows it (a copied key may bring a non-breaking space or a typographic"
                + " quote with it)"),
        of(
            "[backend]\nkind = \"openai\"\napi_key_env = \"MY_KEY\"",
            Map.of("MY_KEY", "\u201csk-proj-abcdef\u201d"),
            "environment variable MY_KEY holds a character an API key cannot have (U+201C at"
                + " position 1): set it again with the key alone, as the provider's console shows"
                + " it (a copied key may bring a non-breaking space or a typographic quote with"
                + " it)"),
        // LEGIO_DB_URL
        of(
            "",
            Map.of("LEGIO_DB_URL", "mysql://h/db?password=hunter2&x=1"),
            "environment variable LEGIO_DB_URL: expected a JDBC URL starting with"
                + " jdbc:postgresql: or jdbc:sqlite:, got 'mysql://h/db?password=***&x=1'"),
        // [logging]
        of(
            "[logging]\nlevel = \"loud\"",
            "FILE: [logging] level: expected one of \"error\", \"warn\", \"info\", \"debug\", \"trace\","
                + " got \"loud\""),
        of(
            "[logging]\nfile = 1",
            "FILE: [logging] file: expected a string in double quotes, got 1"),
        of(
            "[logging]\npath = \"x\"",
            "FILE: [logging] unknown key 'path'; known keys here: file, level"),
        // [sessions]
        of(
            "[sessions]\nttl = 1",
            "FILE: [sessions] unknown key 'ttl'; known keys here: cleanup_at,"
                + " condense_after_tokens, lease_ttl_seconds,"
                + " lock_wait_seconds, max_input_tokens, reaper_interval_seconds,"
                + " resume_after_idle, shutdown_grace_seconds, ttl_days"),
        of(
            "[sessions]\nresume_after_idle = \"yes\"",
            "FILE: [sessions] resume_after_idle: expected true or false, got \"yes\""),
        of(
            "[sessions]\ncondense_after_tokens = -1",
            "FILE: [sessions] condense_after_tokens: expected an integer from 0 to 100000000, got"
                + " -1"),
        of(
            "[sessions]\nmax_input_tokens = 999",
            "FILE: [sessions] max_input_tokens: expected an integer from 1000 to 100000000, got 999"),
        of(
            "[sessions]\nreaper_interval_seconds = 0",
            "FILE: [sessions] reaper_interval_seconds: expected an integer from 1 to 86400, got 0"),
        of(
            "[sessions]\nlock_wait_seconds = -1",
            "FILE: [sessions] lock_wait_seconds: expected an integer from 0 to 3600, got -1"),
        of(
            "[sessions]\nlease_ttl_seconds = 2",
            "FILE: [sessions] lease_ttl_seconds: expected an integer from 3 to 3600, got 2"),
        of(
            "[sessions]\nshutdown_grace_seconds = \"5\"",
            "FILE: [sessions] shutdown_grace_seconds: expected an integer from 0 to 3600, got \"5\""),
        of(
            "[sessions]\ncleanup_at = \"2am\"",
            "FILE: [sessions] cleanup_at: expected a time of day in UTC as \"HH:MM\", got \"2am\""),
        of(
            "[sessions]\ncleanup_at = 2",
            "FILE: [sessions] cleanup_at: expected a string in double quotes, got 2"),
        of(
            "[sessions]\nttl_days = 3",
            "FILE: [sessions.ttl_days] must be a table ([sessions.ttl_days]), got 3"),
        of(
            "[sessions.ttl_days]\nmistral = 3",
            "FILE: [sessions.ttl_days] unknown key 'mistral'; known keys here: anthropic, claude-cli,"
                + " default, offline, ollama, openai"),
        of(
            "[sessions.ttl_days]\nollama = 0",
            "FILE: [sessions.ttl_days] ollama: expected an integer from 1 to 3650, got 0"),
        // [channels]
        of(
            "[channels]\nmax = 1",
            "FILE: [channels] unknown key 'max'; known keys here: cleanup_interval_minutes,"
                + " context_threshold_tokens, idle_timeout_minutes, max_sessions, roles"),
        of(
            "[channels]\nmax_sessions = 0",
            "FILE: [channels] max_sessions: expected an integer from 1 to 100000, got 0"),
        of(
            "[channels]\nidle_timeout_minutes = 0",
            "FILE: [channels] idle_timeout_minutes: expected an integer from 1 to 10080, got 0"),
        of(
            "[channels]\ncleanup_interval_minutes = 1441",
            "FILE: [channels] cleanup_interval_minutes: expected an integer from 1 to 1440, got 1441"),
        of(
            "[channels]\ncontext_threshold_tokens = 10",
            "FILE: [channels] context_threshold_tokens: expected an integer from 1000 to 100000000,"
                + " got 10"),
        of(
            "[channels]\nroles = \"chat\"",
            "FILE: [channels.roles] must be a table ([channels.roles]), got \"chat\""),
        of(
            "[channels.roles]\nTelegram = \"chat\"",
            "FILE: [channels.roles] 'Telegram' is not a valid source name (lowercase letters, digits,"
                + " - and _)"),
        of(
            "[channels.roles]\ntelegram = \"root\"",
            "FILE: [channels.roles] telegram: expected one of \"operator\", \"chat\", got \"root\""),
        of(
            "[channels.roles]\ntelegram = 1",
            "FILE: [channels.roles] telegram: expected a string in double quotes, got 1"),
        // [backend]
        of(
            "[backend]\nkinds = 1",
            "FILE: [backend] unknown key 'kinds'; known keys here: api_key_env, base_url, claude_cli,"
                + " connect_timeout_seconds, context_windows, count_tokens, keep_alive, kind,"
                + " max_output_tokens, max_retries, model, request_timeout_seconds,"
                + " summarise_after_tokens"),
        of(
            "[backend]\nkind = \"gpt\"",
            "FILE: [backend] kind: expected one of \"auto\", \"offline\", \"claude-cli\","
                + " \"anthropic\", \"openai\", \"ollama\", got \"gpt\""),
        of(
            "[backend]\nmodel = 4",
            "FILE: [backend] model: expected a string in double quotes, got 4"),
        of(
            "[backend]\nbase_url = \"localhost:11434\"",
            "FILE: [backend] base_url: expected an http:// or https:// URL, or \"\", got"
                + " \"localhost:11434\""),
        of(
            "[backend]\nbase_url = \"https://alice:Pa55 Word7Secret@llm.example.com/v1\"",
            "FILE: [backend] base_url: expected an http:// or https:// URL, or \"\", got"
                + " \"https://***@llm.example.com/v1\": "
                + USER_INFO_HINT),
        of(
            "[backend]\nbase_url = \"https://alice:Pa55@Word7@llm.example.com/v1\"",
            "FILE: [backend] base_url: expected an http:// or https:// URL, or \"\", got"
                + " \"https://***@llm.example.com/v1\": "
                + USER_INFO_HINT),
        of(
            "[backend]\nbase_url = \"https://alice:Word7Secret@/v1\"",
            "FILE: [backend] base_url: expected an http:// or https:// URL, or \"\", got"
                + " \"https://***@/v1\""),
        of(
            "[backend]\napi_key_env = []",
            "FILE: [backend] api_key_env: expected a string in double quotes, got []"),
        of(
            "[backend]\nconnect_timeout_seconds = 601",
            "FILE: [backend] connect_timeout_seconds: expected an integer from 1 to 600, got 601"),
        of(
            "[backend]\nrequest_timeout_seconds = 0",
            "FILE: [backend] request_timeout_seconds: expected an integer from 1 to 86400, got 0"),
        of(
            "[backend]\nmax_retries = 11",
            "FILE: [backend] max_retries: expected an integer from 0 to 10, got 11"),
        of(
            "[backend]\nmax_output_tokens = 0",
            "FILE: [backend] max_output_tokens: expected an integer from 1 to 1000000, got 0"),
        of(
            "[backend]\nsummarise_after_tokens = -1",
            "FILE: [backend] summarise_after_tokens: expected an integer from 0 to 100000000, got -1"),
        of(
            "[backend]\ncount_tokens = \"yes\"",
            "FILE: [backend] count_tokens: expected true or false, got \"yes\""),
        of(
            "[backend]\nkeep_alive = \"forever\"",
            "FILE: [backend] keep_alive: expected a duration like \"5m\", \"1h\", \"0\" or \"-1\", got"
                + " \"forever\""),
        of(
            "[backend]\ncontext_windows = 1",
            "FILE: [backend.context_windows] must be a table ([backend.context_windows]), got 1"),
        of(
            "[backend.context_windows]\nllama = \"big\"",
            "FILE: [backend.context_windows] llama: expected an integer from 1000 to 100000000, got"
                + " \"big\""),
        of(
            "[backend.context_windows]\nllama = 999",
            "FILE: [backend.context_windows] llama: expected an integer from 1000 to 100000000, got 999"),
        // [backend.claude_cli]
        of(
            "[backend]\nclaude_cli = \"x\"",
            "FILE: [backend.claude_cli] must be a table ([backend.claude_cli]), got \"x\""),
        of(
            "[backend.claude_cli]\nmodel = \"x\"",
            "FILE: [backend.claude_cli] unknown key 'model'; known keys here: allowed_tools, binary,"
                + " hide_secrets_from_agents, mcp_config, mode, permission_mode,"
                + " turn_timeout_seconds"),
        of(
            "[backend.claude_cli]\nbinary = \" \"",
            "FILE: [backend.claude_cli] binary: expected a path or a command name, got \"\""),
        of(
            "[backend.claude_cli]\nmode = \"sometimes\"",
            "FILE: [backend.claude_cli] mode: expected one of \"persistent\", \"per_turn\", got"
                + " \"sometimes\""),
        of(
            "[backend.claude_cli]\npermission_mode = \"yolo\"",
            "FILE: [backend.claude_cli] permission_mode: expected one of \"default\", \"acceptedits\","
                + " \"bypasspermissions\", \"plan\", \"dontask\", got \"yolo\""),
        of(
            "[backend.claude_cli]\nallowed_tools = \"Read\"",
            "FILE: [backend.claude_cli] allowed_tools: expected an array of strings, e.g. [\"Read\","
                + " \"mcp__memoria\"], got \"Read\""),
        of(
            "[backend.claude_cli]\nallowed_tools = [\"Read\", 1]",
            "FILE: [backend.claude_cli] allowed_tools: expected an array of non-empty strings, got"
                + " [\"Read\",1]"),
        of(
            "[backend.claude_cli]\nallowed_tools = [\"\"]",
            "FILE: [backend.claude_cli] allowed_tools: expected an array of non-empty strings, got"
                + " [\"\"]"),
        of(
            "[backend.claude_cli]\nturn_timeout_seconds = 0",
            "FILE: [backend.claude_cli] turn_timeout_seconds: expected an integer from 1 to 86400, got 0"),
        of(
            "[backend.claude_cli]\nmcp_config = 1",
            "FILE: [backend.claude_cli] mcp_config: expected a string in double quotes, got 1"),
        // [mcp]
        of(
            "[mcp]\nport = 1",
            "FILE: [mcp] unknown key 'port'; known keys here: allowed_origins, http_bind, http_enabled, http_port"),
        of(
            "[mcp]\nhttp_enabled = \"yes\"",
            "FILE: [mcp] http_enabled: expected true or false, got \"yes\""),
        of(
            "[mcp]\nhttp_bind = \"  \"",
            "FILE: [mcp] http_bind: expected an address such as \"127.0.0.1\", got \"\""),
        of(
            "[mcp]\nhttp_port = 70000",
            "FILE: [mcp] http_port: expected an integer from 0 to 65535, got 70000"),
        // [transcripts]
        of(
            "[transcripts]\nfolder = \"x\"",
            "FILE: [transcripts] unknown key 'folder'; known keys here: dir, project"),
        of(
            "[transcripts]\ndir = 1",
            "FILE: [transcripts] dir: expected a string in double quotes, got 1"),
        of(
            "[transcripts]\nproject = \"../elsewhere\"",
            "FILE: [transcripts] project: expected a folder name of letters, digits, '.', '_' and"
                + " '-' (1 to 200), such as \"legion\", got \"../elsewhere\""),
        // [context]
        of(
            "[context]\nauto = 1",
            "FILE: [context] unknown key 'auto'; known keys here: auto_compact, compact_threshold,"
                + " keep_recent_messages, max_compaction_failures, tool_result_budget"),
        of(
            "[context]\nauto_compact = 1",
            "FILE: [context] auto_compact: expected true or false, got 1"),
        of(
            "[context]\ncompact_threshold = 1.5",
            "FILE: [context] compact_threshold: expected a number above 0 and at most 1 (e.g. 0.9),"
                + " got 1.5"),
        of(
            "[context]\ncompact_threshold = nan",
            "FILE: [context] compact_threshold: expected a number above 0 and at most 1 (e.g. 0.9),"
                + " got nan"),
        of(
            "[context]\ncompact_threshold = -inf",
            "FILE: [context] compact_threshold: expected a number above 0 and at most 1 (e.g. 0.9),"
                + " got -inf"),
        of(
            "[context]\ncompact_threshold = 0",
            "FILE: [context] compact_threshold: expected a number above 0 and at most 1 (e.g. 0.9),"
                + " got 0"),
        of(
            "[context]\ncompact_threshold = \"0.5\"",
            "FILE: [context] compact_threshold: expected a number above 0 and at most 1 (e.g. 0.9),"
                + " got \"0.5\""),
        of(
            "[context]\ntool_result_budget = 999",
            "FILE: [context] tool_result_budget: expected an integer from 1000 to 100000000, got 999"),
        of(
            "[context]\nkeep_recent_messages = 0",
            "FILE: [context] keep_recent_messages: expected an integer from 1 to 10000, got 0"),
        of(
            "[context]\nmax_compaction_failures = 101",
            "FILE: [context] max_compaction_failures: expected an integer from 1 to 100, got 101"),
        // [memory]
        of(
            "[memory]\nfolder = \"x\"",
            "FILE: [memory] unknown key 'folder'; known keys here: dir, dream_lock_stale_minutes,"
                + " dream_min_hours, dream_min_sessions, extraction, extraction_min_messages,"
                + " extraction_min_tool_calls, index_max_lines"),
        of(
            "[memory]\ndir = true",
            "FILE: [memory] dir: expected a string in double quotes, got true"),
        of(
            "[memory]\nextraction = \"no\"",
            "FILE: [memory] extraction: expected true or false, got \"no\""),
        of(
            "[memory]\nextraction_min_messages = 0",
            "FILE: [memory] extraction_min_messages: expected an integer from 1 to 100000, got 0"),
        of(
            "[memory]\nextraction_min_tool_calls = -1",
            "FILE: [memory] extraction_min_tool_calls: expected an integer from 0 to 100000, got -1"),
        of(
            "[memory]\ndream_min_hours = 100001",
            "FILE: [memory] dream_min_hours: expected an integer from 0 to 100000, got 100001"),
        of(
            "[memory]\ndream_min_sessions = -2",
            "FILE: [memory] dream_min_sessions: expected an integer from 0 to 100000, got -2"),
        of(
            "[memory]\ndream_lock_stale_minutes = 0",
            "FILE: [memory] dream_lock_stale_minutes: expected an integer from 1 to 100000, got 0"),
        of(
            "[memory]\nindex_max_lines = 9",
            "FILE: [memory] index_max_lines: expected an integer from 10 to 100000, got 9"),
        // [gateways.telegram]
        of(
            "[gateways.telegram]\noperators = [\"ada\"]",
            "FILE: [gateways.telegram] operators: expected an array of integers, e.g. [123456789],"
                + " got [\"ada\"]"),
        of(
            "[gateways.telegram]\nmode = \"push\"",
            "FILE: [gateways.telegram] mode: expected one of \"polling\", \"webhook\", got \"push\""),
        of(
            "[gateways.telegram]\napi_url = \"api.telegram.org\"",
            "FILE: [gateways.telegram] api_url: expected an http:// or https:// URL, got"
                + " \"api.telegram.org\""),
        of(
            "[gateways.telegram]\nenabled = true\nmode = \"webhook\"",
            "FILE: [gateways.telegram] mode = \"webhook\" needs public_url: the https:// address"
                + " Telegram can reach, e.g. \"https://legio.example.com/gateways/telegram/webhook\""),
        of(
            "[gateways.telegram]\ntoken = \"123:abc\"",
            "FILE: [gateways.telegram] unknown key 'token'; known keys here: api_url, enabled,"
                + " mode, operators, public_url, token_env, webhook_secret_env"),
        // the file itself
        of(
            "history_window = 50\n[praetorium\nstore = \"sqlite\"",
            "FILE is not valid TOML at line 2, column 12: Newline not permitted here"),
        of(
            "history_window = 5\n\n[backend]\nkind = \"offline\"\nkind = \"auto\"\nmodel = \"x\"",
            "FILE is not valid TOML at line 5: the key kind is set twice in [backend]; keep one of"
                + " them"),
        of(
            "history_window = 5   # a comment\nhistory_window = [\n  1,\n  2]\n\n# more\n",
            "FILE is not valid TOML at line 2: the key history_window is set twice; keep one of"
                + " them"),
        of(
            "[backend]\nkind = \"offline\"\n\n[backend]\nmodel = \"x\"",
            "FILE is not valid TOML at line 4: the table [backend] is defined twice; merge its keys"
                + " into one"));
  }

  private static Arguments of(String toml, String expected) {
    return Arguments.of(toml, Map.of(), expected);
  }

  private static Arguments of(String toml, Map<String, String> env, String expected) {
    return Arguments.of(toml, env, expected);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("messages")
  void eachFaultHasItsExactMessage(String toml, Map<String, String> env, String expected)
      throws Exception {
    Path file = dir.resolve("legio.toml");
    Files.writeString(file, toml + "\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, env))
        .isInstanceOf(ConfigException.class)
        .hasMessage(expected.replace("FILE", file.toString()));
  }

  @org.junit.jupiter.api.Test
  void aMissingFileSaysHowToCreateIt() {
    Path file = dir.resolve("nope/legio.toml");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessage(file + " does not exist: create it with `legio init`");
  }
}
