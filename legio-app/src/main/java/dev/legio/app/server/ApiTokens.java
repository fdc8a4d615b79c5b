package dev.legio.app.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.legio.errors.FailureText;
import dev.legio.errors.JsonFileProblem;
import dev.legio.files.FolderLock;
import dev.legio.log.Names;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The server's bearer tokens ({@code legio token create|list|revoke}), in {@code
 * castra/server/tokens.json}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A token is 32 random bytes, shown once when it is created; only its SHA-256 is stored.
 *   <li>The folder is readable by its owner only ({@code rwx------}), the file too ({@code
 *       rw-------}); the file is replaced atomically, under the folder's lock ({@link FolderLock}),
 *       so that two {@code legio token create} at once both keep their token.
 *   <li>A token's name is unique; a gateway token names at least one channel source, and only a
 *       gateway token names sources; only a task token names session key prefixes ({@link
 *       SessionKeyPrefixes}: without them it reaches every key). The prefixes are written to the
 *       file only when there are some, so that a token file without scoped tokens stays readable by
 *       an earlier Legio, and one with them is refused by it (as not a valid token file) rather
 *       than read as reaching every key.
 *   <li>A lookup re-reads the file when it changed (another file, size or modification time), so a
 *       revoke from another process takes effect on the next request. Comparison takes constant
 *       time; tokens never reach a log or an error.
 * </ul>
 */
public final class ApiTokens {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final TypeReference<List<ApiToken>> LIST = new TypeReference<>() {};

  /**
   * One stored token: its name, role, sources (a gateway's), key prefixes (a task token's; none:
   * every key), the hex SHA-256 of its secret, its creation.
   */
  public record ApiToken(
      String name,
      String role,
      List<String> sources,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> keys,
      String sha256,
      String created) {
    public ApiToken {
      sources = sources == null ? List.of() : List.copyOf(sources);
      keys = keys == null ? List.of() : List.copyOf(keys);
    }

    /** The session keys this token reaches, when it is a task token. */
    public SessionKeyPrefixes keyPrefixes() {
      return new SessionKeyPrefixes(keys);
    }

    Caller caller() {
      return new Caller(name, Role.parse(role), sources, keyPrefixes(), sha256);
    }
  }

  /** A token just created: the secret (to show once) and what is stored. */
  public record Created(String secret, ApiToken token) {}

  private final Path file;
  private volatile Snapshot snapshot = Snapshot.NONE;

  /**
   * The tokens as read from one version of the file, with each one's hash as bytes. A write
   * replaces the file (a rename), so a version is the file's key (its inode), size and modification
   * time: the modification time alone can stay the same over a write within one tick of the file
   * system's clock, and a revoke would then go unseen.
   */
  private record Snapshot(FileVersion version, List<ApiToken> tokens, List<byte[]> hashes) {
    static final Snapshot NONE = new Snapshot(null, List.of(), List.of());

    static Snapshot of(FileVersion version, List<ApiToken> tokens) {
      List<byte[]> hashes = new ArrayList<>(tokens.size());
      for (ApiToken t : tokens) {
        hashes.add(t.sha256().getBytes(StandardCharsets.US_ASCII));
      }
      return new Snapshot(version, List.copyOf(tokens), List.copyOf(hashes));
    }
  }

  private record FileVersion(Object key, long size, FileTime modified) {}

  public ApiTokens(Path castra) {
    this.file = castra.resolve("server").resolve("tokens.json");
  }

  public Path file() {
    return file;
  }

  /**
   * Creates a token that names no session key prefixes (a task token: every key); refuses a name in
   * use, a bad name, a gateway without sources, or sources on another role.
   */
  public Created create(String name, Role role, List<String> sources) {
    return create(name, role, sources, null);
  }

  /**
   * Creates a token; {@code keys} are a task token's session key prefixes (null: none given, every
   * key). Refuses a name in use, a bad name, a gateway without sources, sources on another role
   * than gateway, prefixes on another role than task, or a prefix {@link SessionKeyPrefixes#given}
   * refuses.
   */
  public Created create(String name, Role role, List<String> sources, List<String> keys) {
    Names.require(name, "token name");
    if (role != Role.GATEWAY && !sources.isEmpty()) {
      throw new IllegalArgumentException(
          "--sources is for gateway tokens only"
              + (role == Role.TASK
                  ? ": a task token is scoped with --keys (session key prefixes, e.g. --keys"
                      + " campaign:)"
                  : ""));
    }
    if (role != Role.TASK && keys != null) {
      throw new IllegalArgumentException(
          "--keys is for task tokens only"
              + switch (role) {
                case GATEWAY ->
                    ": a gateway token is scoped with --sources (channel sources, e.g. --sources"
                        + " telegram)";
                case OPERATOR -> ": an operator token reaches every task session key";
                default -> "";
              });
    }
    SessionKeyPrefixes prefixes =
        keys == null ? SessionKeyPrefixes.EVERY_KEY : SessionKeyPrefixes.given(keys);
    for (String source : sources) {
      if (!source.matches("[a-z][a-z0-9_-]{0,31}")) {
        throw new IllegalArgumentException(
            "source '" + source + "' is not a channel source: use a name such as 'telegram'");
      }
    }
    if (role == Role.GATEWAY && sources.isEmpty()) {
      throw new IllegalArgumentException(
          "a gateway token needs --sources (the channel sources it may post to, e.g. telegram)");
    }
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    String secret = "legio_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    ApiToken token =
        new ApiToken(
            name,
            role.label(),
            role == Role.GATEWAY ? sources : List.of(),
            prefixes.prefixes(),
            sha256(secret),
            Instant.now().toString());
    locked(
        all -> {
          if (all.stream().anyMatch(t -> t.name().equals(name))) {
            throw new IllegalArgumentException(
                "a token named '"
                    + name
                    + "' exists: revoke it first (legio token revoke "
                    + name
                    + ")");
          }
          all.add(token);
          return true;
        });
    return new Created(secret, token);
  }

  /** Changes the tokens under the folder's lock; writes them when {@code change} says so. */
  private boolean locked(java.util.function.Predicate<List<ApiToken>> change) {
    try {
      return FolderLock.run(
          file.getParent(),
          () -> {
            List<ApiToken> all = new ArrayList<>(read());
            boolean changed = change.test(all);
            if (changed) {
              write(all);
            }
            return changed;
          });
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot lock the server's tokens in " + file + ": " + FailureText.of(e), e);
    }
  }

  private List<ApiToken> read() throws IOException {
    try {
      return parse();
    } catch (java.io.FileNotFoundException | NoSuchFileException e) {
      return List.of();
    }
  }

  /** The file's tokens; a {@link TokenFileException} saying what to do when it is not valid. */
  private List<ApiToken> parse() throws IOException {
    try {
      return Json.MAPPER.readValue(file.toFile(), LIST);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new TokenFileException(
          file
              + " is not a valid token file ("
              + JsonFileProblem.of(e)
              + "): restore it from a backup, or move it aside and create the tokens again with"
              + " `legio token create NAME --role ROLE`",
          e);
    }
  }

  /** Removes the named token; false when there is none. */
  public boolean revoke(String name) {
    return locked(all -> all.removeIf(t -> t.name().equals(name)));
  }

  /** Every token, as stored (no secrets: only hashes). */
  public List<ApiToken> list() {
    return current().tokens();
  }

  /** The tokens as the file holds them now: read again when it changed. */
  private Snapshot current() {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      FileVersion version = new FileVersion(a.fileKey(), a.size(), a.lastModifiedTime());
      Snapshot s = snapshot;
      if (!version.equals(s.version())) {
        s = Snapshot.of(version, parse());
        snapshot = s;
      }
      return s;
    } catch (NoSuchFileException e) {
      snapshot = Snapshot.NONE;
      return Snapshot.NONE;
    } catch (IOException e) {
      throw new TokenFileException(
          "cannot read the server's tokens in " + file + ": " + e.getMessage(), e);
    }
  }

  /** Who holds {@code secret}, if it is a token's. */
  public Optional<Caller> callerOf(String secret) {
    if (secret == null || secret.isEmpty()) {
      return Optional.empty();
    }
    byte[] given = sha256(secret).getBytes(StandardCharsets.US_ASCII);
    Snapshot s = current();
    ApiToken found = null;
    for (int i = 0; i < s.hashes().size(); i++) {
      if (MessageDigest.isEqual(s.hashes().get(i), given)) {
        found = s.tokens().get(i);
      }
    }
    return Optional.ofNullable(found).map(ApiToken::caller);
  }

  /**
   * Whether the token {@code caller} came with is still in the file (not revoked, nor replaced by a
   * token made later under its name). A file that cannot be read now says nothing of it: true.
   */
  public boolean stillHolds(Caller caller) {
    Snapshot s;
    try {
      s = current();
    } catch (TokenFileException e) {
      return true; // every new request gets 503 meanwhile; the damage is in the log
    }
    for (ApiToken t : s.tokens()) {
      if (t.sha256().equals(caller.tokenId())) {
        return true;
      }
    }
    return false;
  }

  private void write(List<ApiToken> tokens) {
    try {
      Path folder = file.getParent();
      Files.createDirectories(folder);
      try {
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
      } catch (UnsupportedOperationException notPosix) {
        // Windows: the castra's own permissions apply.
      }
      Path temp = Files.createTempFile(folder, ".tokens.", ".tmp"); // rw------- on POSIX
      try {
        Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(temp.toFile(), tokens);
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot write the server's tokens in " + file + ": " + FailureText.of(e), e);
    }
  }

  static String sha256(String secret) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
