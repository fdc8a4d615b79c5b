package dev.legio.mcp;

import dev.legio.log.Names;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The bearer tokens that authenticate each caller (an agent or the legatus) to the MCP server over
 * HTTP: one per caller, in {@code castra/mcp/tokens/NAME}, created on first use from 32 random
 * bytes. The folder is readable by its owner only ({@code rwx------}), each file too ({@code
 * rw-------}). Tokens never appear in logs or errors; comparison takes constant time. A token file
 * its group or other users may access is refused ({@link TokenFileException}: the caller cannot
 * authenticate with it, and printing it fails), naming the file and the {@code chmod}.
 */
public final class McpTokens {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(McpTokens.class);

  private final Path folder;

  public McpTokens(Path castra) {
    this.folder = castra.resolve("mcp").resolve("tokens");
  }

  public Path folder() {
    return folder;
  }

  /** The caller's token, created if it has none. */
  public String tokenFor(String caller) {
    Names.require(caller, "agent");
    Path file = folder.resolve(caller);
    try {
      Optional<String> existing = read(file);
      if (existing.isPresent()) {
        return existing.get();
      }
      ensureFolder();
      byte[] bytes = new byte[32];
      RANDOM.nextBytes(bytes);
      String token = "legio_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      Path temp = Files.createTempFile(folder, "." + caller + ".", ".tmp"); // rw------- on POSIX
      try {
        Files.writeString(temp, token + "\n", StandardCharsets.US_ASCII);
        try {
          Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException raced) {
          return read(file).orElseThrow();
        }
      } finally {
        Files.deleteIfExists(temp);
      }
      // Another process may have replaced it in the same instant: what is on disk wins.
      return read(file).orElse(token);
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot create the MCP token of " + caller + " in " + folder, e);
    }
  }

  /** The caller a token belongs to, if any. */
  public Optional<String> callerOf(String token) {
    if (token == null || token.isEmpty()) {
      return Optional.empty();
    }
    byte[] given = token.getBytes(StandardCharsets.UTF_8);
    String found = null;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
      for (Path file : files) {
        String caller = file.getFileName().toString();
        if (!Names.isValid(caller)) {
          continue;
        }
        Optional<String> stored;
        try {
          stored = read(file);
        } catch (TokenFileException refused) {
          log.warn("{}", refused.getMessage());
          continue;
        }
        if (stored.isPresent()
            && MessageDigest.isEqual(stored.get().getBytes(StandardCharsets.UTF_8), given)) {
          found = caller;
        }
      }
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the MCP tokens in " + folder, e);
    }
    return Optional.ofNullable(found);
  }

  /**
   * A token file that its group or other users may read, write or run is refused (a token anyone on
   * the machine can read is no secret): the error names the file and the fix.
   */
  static void requirePrivate(Path file) throws IOException {
    Set<PosixFilePermission> permissions;
    try {
      permissions = Files.getPosixFilePermissions(file);
    } catch (UnsupportedOperationException notPosix) {
      return; // Windows: the castra's own permissions apply
    }
    Set<PosixFilePermission> open = EnumSet.noneOf(PosixFilePermission.class);
    for (PosixFilePermission p : permissions) {
      if (p.name().startsWith("GROUP_") || p.name().startsWith("OTHERS_")) {
        open.add(p);
      }
    }
    if (!open.isEmpty()) {
      throw new TokenFileException(
          file
              + " is open to other users ("
              + PosixFilePermissions.toString(permissions)
              + "): the token is refused. Run `chmod 600 "
              + file
              + "`, or delete the file for a new token.");
    }
  }

  /** A token file Legio refuses to use. */
  public static final class TokenFileException extends IllegalArgumentException {
    TokenFileException(String message) {
      super(message);
    }
  }

  private static Optional<String> read(Path file) throws IOException {
    try {
      requirePrivate(file);
      String token = Files.readString(file, StandardCharsets.US_ASCII).strip();
      return token.isEmpty() ? Optional.empty() : Optional.of(token);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  private void ensureFolder() throws IOException {
    Files.createDirectories(folder);
    try {
      Files.setPosixFilePermissions(
          folder.getParent(), PosixFilePermissions.fromString("rwx------"));
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
    } catch (UnsupportedOperationException notPosix) {
      // Windows: the castra's own permissions apply.
    }
  }
}
