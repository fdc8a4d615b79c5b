package dev.legio.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The keys a table accepts are the keys its reader asked for; nothing else lists them. */
class TomlTableTest {
  private static final Path FILE = Path.of("/w/legio.toml");

  private static TomlTable document(String toml) throws Exception {
    return TomlTable.document(FILE, (ObjectNode) new TomlMapper().readTree(toml));
  }

  @Test
  void aKeyNoReaderAskedForIsUnknownAndTheKnownKeysAreTheOnesAskedFor() throws Exception {
    TomlTable root = document("[pond]\nfrogs = 3\ntoads = 1\n");
    TomlTable pond = root.table("pond");
    assertThat(pond.integer("frogs", 0, 0, 10)).isEqualTo(3);
    assertThat(pond.bool("lilies", true)).isTrue();

    assertThatThrownBy(root::rejectUnknownKeys)
        .isInstanceOf(ConfigException.class)
        .hasMessage(FILE + ": [pond] unknown key 'toads'; known keys here: frogs, lilies");

    pond.integer("toads", 0, 0, 10);
    root.rejectUnknownKeys();
  }

  @Test
  void theFirstTableReadIsReportedFirst() throws Exception {
    TomlTable root = document("stray = 1\n[pond]\nstray = 2\n");
    root.table("pond");
    assertThatThrownBy(root::rejectUnknownKeys)
        .hasMessage(FILE + ": unknown key 'stray'; known keys here: pond");
  }

  @Test
  void twoReadersOfOneTableShareWhatTheyAskedFor() throws Exception {
    TomlTable root = document("[backend]\nkind = \"x\"\n[backend.cli]\nmode = \"y\"\n");
    assertThat(root.table("backend").string("kind", "")).isEqualTo("x");
    assertThat(root.table("backend").table("cli").string("mode", "")).isEqualTo("y");
    root.rejectUnknownKeys();
    assertThat(root.table("backend")).isSameAs(root.table("backend"));
  }

  @Test
  void anOpenTableAcceptsAnyNameAndIsLeftOutOfTheFixedKeys() throws Exception {
    TomlTable root = document("[windows]\nllama = 8192\nqwen = 32768\n");
    TomlTable windows = root.table("windows");
    assertThat(windows.keys()).containsExactly("llama", "qwen");
    root.rejectUnknownKeys();
    assertThat(root.keysRead()).isEqualTo(Map.of("", Set.of("windows")));
  }

  @Test
  void stringsAndPathsAreChecked() throws Exception {
    TomlTable root = document("tools = [\"Read\"]\ndir = \"a/../b\"\n");
    assertThat(root.strings("tools", "[\"Read\"]")).isEqualTo(List.of("Read"));
    assertThat(root.path("dir", Path.of("/w"), Path.of("/w/x"))).isEqualTo(Path.of("/w/b"));
    assertThat(root.path("absent", Path.of("/w"), Path.of("/w/x"))).isEqualTo(Path.of("/w/x"));
  }
}
