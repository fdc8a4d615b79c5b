package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's tokens on disk: hashed, unique by name, none lost to concurrent writers. */
class ApiTokensTest {
  @TempDir Path castra;

  @Test
  void concurrentCreatorsEachKeepTheirToken() throws Exception {
    List<Future<ApiTokens.Created>> made = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      for (int i = 0; i < 40; i++) {
        String name = "gw" + i;
        // One ApiTokens per writer, as separate `legio token create` processes would have.
        made.add(
            pool.submit(
                () -> new ApiTokens(castra).create(name, Role.GATEWAY, List.of("telegram"))));
      }
      ApiTokens reader = new ApiTokens(castra);
      for (Future<ApiTokens.Created> f : made) {
        ApiTokens.Created c = f.get();
        assertThat(reader.callerOf(c.secret()))
            .hasValueSatisfying(caller -> assertThat(caller.token()).isEqualTo(c.token().name()));
      }
      assertThat(reader.list()).hasSize(40);
    }
  }

  @Test
  void aTokenFileThatCannotBeWrittenSaysWhyNotOnlyWhere() throws Exception {
    Files.writeString(castra.resolve("server"), "a file where the tokens' folder belongs");
    ApiTokens tokens = new ApiTokens(castra);

    assertThatThrownBy(() -> tokens.create("console", Role.OPERATOR, List.of()))
        .hasMessageStartingWith("cannot lock the server's tokens in ")
        .hasMessageContaining(castra.resolve("server").toString() + " already exists");
  }

  @Test
  void secretsAreCheckedAgainstTheirHashOnly() {
    ApiTokens tokens = new ApiTokens(castra);
    ApiTokens.Created c = tokens.create("console", Role.OPERATOR, List.of());
    assertThat(c.token().sha256())
        .isEqualTo(ApiTokens.sha256(c.secret()))
        .doesNotContain(c.secret());
    assertThat(tokens.callerOf(c.secret())).map(Caller::role).hasValue(Role.OPERATOR);
    assertThat(tokens.callerOf(c.token().sha256())).isEmpty();
    assertThat(tokens.callerOf("")).isEmpty();
    assertThatThrownBy(() -> tokens.create("Bad Name", Role.OPERATOR, List.of()))
        .hasMessageContaining("not a valid name");
    assertThatThrownBy(() -> tokens.create("gw", Role.GATEWAY, List.of("Tele gram")))
        .hasMessageContaining("not a channel source");
    assertThat(tokens.revoke("console")).isTrue();
    assertThat(tokens.revoke("console")).isFalse();
    assertThat(tokens.callerOf(c.secret())).isEmpty();
  }

  @Test
  void aTaskTokenWrittenWithoutKeyPrefixesReachesEveryKeyAndOnlyScopedOnesStoreThem()
      throws Exception {
    Path file = castra.resolve("server/tokens.json");
    Files.createDirectories(file.getParent());
    String secret = "legio_made-before-keys";
    // A token file an earlier Legio wrote: no "keys".
    Files.writeString(
        file,
        "[{\"name\":\"tasks\",\"role\":\"task\",\"sources\":[],\"sha256\":\""
            + ApiTokens.sha256(secret)
            + "\",\"created\":\"2025-01-01T00:00:00Z\"}]");
    ApiTokens tokens = new ApiTokens(castra);
    Caller old = tokens.callerOf(secret).orElseThrow();
    assertThat(old.keys().everyKey()).isTrue();
    assertThat(old.reachesTaskKey("anything:1")).isTrue();

    tokens.create("more", Role.TASK, List.of());
    assertThat(Files.readString(file)).doesNotContain("\"keys\"");
    ApiTokens.Created scoped =
        tokens.create("scoped", Role.TASK, List.of(), List.of("campaign:", "campaign:"));
    assertThat(scoped.token().keys()).containsExactly("campaign:");
    assertThat(Files.readString(file)).contains("\"keys\"");
    Caller caller = tokens.callerOf(scoped.secret()).orElseThrow();
    assertThat(caller.reachesTaskKey("campaign:7")).isTrue();
    assertThat(caller.reachesTaskKey("campaig")).isFalse();
    assertThatThrownBy(() -> tokens.create("s2", Role.TASK, List.of(), List.of()))
        .hasMessageContaining("--keys names no key prefix");
    assertThatThrownBy(() -> tokens.create("s3", Role.TASK, List.of(), List.of("a\tb")))
        .hasMessageContaining("not printable");
  }

  @Test
  void aRevokeWithinOneTickOfTheFileSystemsClockStillTakesEffect() throws Exception {
    ApiTokens server = new ApiTokens(castra);
    ApiTokens cli = new ApiTokens(castra); // `legio token revoke`, another process
    ApiTokens.Created gone = cli.create("gone", Role.OPERATOR, List.of());
    ApiTokens.Created kept = cli.create("kept", Role.OPERATOR, List.of());
    Path file = castra.resolve("server/tokens.json");
    FileTime before = Files.getLastModifiedTime(file);
    assertThat(server.callerOf(gone.secret())).isPresent();

    assertThat(cli.revoke("gone")).isTrue();
    Files.setLastModifiedTime(file, before); // as if the clock had not ticked since the last write

    assertThat(server.callerOf(gone.secret())).isEmpty();
    assertThat(server.callerOf(kept.secret())).isPresent();
  }
}
