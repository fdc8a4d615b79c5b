package dev.legio.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Forces a folder to disk ({@code fsync} of the folder itself): forcing a file writes its content,
 * not its entry in the folder, so a file created in the folder is only sure to be there after a
 * power cut once its folder is forced too.
 *
 * <p>Rule: best effort. A system that cannot open a folder as a file (Windows) skips it, as does a
 * folder that cannot be forced; the file's own content is on disk either way.
 */
public final class FolderSync {
  private FolderSync() {}

  /** Forces {@code folder}'s entries (a new file's among them) to disk. */
  public static void force(Path folder) {
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException notSupported) {
      // some systems cannot open a folder; the file itself is on disk
    }
  }
}
