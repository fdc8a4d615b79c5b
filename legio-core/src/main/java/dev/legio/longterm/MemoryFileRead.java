package dev.legio.longterm;

import dev.legio.errors.Quoted;
import dev.legio.text.LineAndColumn;
import dev.legio.text.StrictUtf8;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reading one file of an agent's memory folder, never through a symbolic link: what is read may go
 * into a model's prompt or out over the API, so a link placed in the folder ({@code notes.md ->
 * /etc/shadow}) must not carry another file's content there.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Only a regular file that sits in the folder itself is read: the name is a plain file name
 *       (no separator, not {@code .} or {@code ..}) and the file is not a symbolic link, whatever
 *       it points to (even to a file of the same folder). A link, a folder or any other kind of
 *       file is {@link Refused} with a reason naming it; its content is never read.
 *   <li>The check is made on the open file itself ({@code O_NOFOLLOW}): a link swapped in between
 *       the check and the read is refused too.
 *   <li>A file that is not UTF-8 ({@link StrictUtf8}: saved as Latin-1, say) is {@link NotUtf8}:
 *       its text with each byte that is not UTF-8 read as U+FFFD, and a reason naming the file, the
 *       line of the first such byte and what to do. Each caller decides: a reader for people or a
 *       prompt takes the text and warns; anything that would write the file back refuses it (Legio
 *       never rewrites such a file).
 *   <li>A UTF-8 byte order mark at the start is not left out: it is U+FEFF, the text's first
 *       character.
 *   <li>Links in the path above the folder (the {@code [memory] dir} itself on a linked disk) are
 *       the operator's choice and are followed.
 * </ul>
 */
public final class MemoryFileRead {
  private MemoryFileRead() {}

  /** What reading gave: the text, no such file, or a refusal. */
  public sealed interface Result {}

  /** The file's text. */
  public record Text(String text) implements Result {}

  /** There is no such file. */
  public record Missing() implements Result {}

  /**
   * The file is not UTF-8: its text read with U+FFFD for each byte that is not.
   *
   * @param reason for people: names the file and the line of the first such byte, says what to do
   */
  public record NotUtf8(String text, String reason) implements Result {}

  /**
   * The file is a link or not a regular file: not read.
   *
   * @param reason for people: names the file and says what to do
   */
  public record Refused(String reason) implements Result {}

  /**
   * Reads {@code name} of {@code folder} as the class comment says.
   *
   * @throws IOException when it cannot be read
   */
  public static Result of(Path folder, String name) throws IOException {
    Path file = folder.resolve(name).normalize();
    if (name.isEmpty() || !folder.normalize().equals(file.getParent())) {
      return new Refused("'" + Quoted.of(name) + "' is not a file of " + folder + "; not read");
    }
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return new Missing();
    }
    if (attributes.isSymbolicLink()) {
      return link(file);
    }
    if (!attributes.isRegularFile()) {
      return new Refused(
          file
              + (attributes.isDirectory()
                  ? " is a folder, not a file; not read: move it out of the memory folder"
                  : " is not a regular file (a device, pipe or socket); not read: remove it"));
    }
    byte[] bytes;
    try (InputStream in =
        Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      bytes = in.readAllBytes();
    } catch (NoSuchFileException e) {
      return new Missing();
    } catch (FileSystemException e) {
      if (Files.isSymbolicLink(file)) {
        return link(file); // swapped for a link after the check: O_NOFOLLOW refused it
      }
      throw e;
    }
    return switch (StrictUtf8.decode(bytes, StrictUtf8.LeadingBom.KEEP)) {
      case StrictUtf8.Decoded d -> new Text(d.text());
      case StrictUtf8.Malformed m ->
          new NotUtf8(
              new String(bytes, StandardCharsets.UTF_8),
              file
                  + " is not valid UTF-8 (line "
                  + LineAndColumn.of(bytes, m.offset()).line()
                  + " holds a byte that is not; saved as Latin-1?): save it as UTF-8");
    };
  }

  /** Reads {@code file} (its folder and name) as {@link #of(Path, String)} does. */
  public static Result of(Path file) throws IOException {
    Path absolute = file.toAbsolutePath();
    return of(absolute.getParent(), absolute.getFileName().toString());
  }

  private static Refused link(Path file) {
    return new Refused(
        file
            + " is a symbolic link; Legio does not follow links in a memory folder (its target is"
            + " never read or sent): replace it with a plain file or remove it");
  }
}
