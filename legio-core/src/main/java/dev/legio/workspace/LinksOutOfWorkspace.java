package dev.legio.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * The links in a workspace that lead out of it, through which {@code legio init} writes nothing: a
 * castra whose {@code castra/centuriones/vorenus} is a symbolic link to a folder elsewhere (a
 * shared agents repository, another castra).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Before it writes anything, {@code legio init} looks at every folder and file it would
 *       create. One that does not exist yet, whose nearest existing folder is, once its links are
 *       followed, outside the workspace's folder (followed too), is refused: the error names the
 *       link on its way, where that link leads, and the file or folder it would create there, and
 *       says what to do. Nothing is written, in the workspace or elsewhere.
 *   <li>What exists already is kept, through a link or not (nothing is written to it), and a link
 *       that leads to another place inside the workspace is followed as any folder: neither writes
 *       outside the workspace.
 *   <li>The workspace's own folder may be a link: it is where the user put the workspace.
 * </ul>
 *
 * <p>Why refuse rather than skip with a notice: a link to a folder elsewhere is someone's choice,
 * and the folder it leads to may be shared (other castra, a repository) and is not the workspace's
 * to fill; skipping it would leave an agent without its {@code prompt.md} in a workspace that
 * {@code legio init} called ready, to fail at its first turn. Refusing says so before anything is
 * written, so the user decides (write the file there, or put a folder in the link's place), and
 * running {@code legio init} again afterwards is safe as ever.
 */
final class LinksOutOfWorkspace {
  private LinksOutOfWorkspace() {}

  /**
   * Throws {@link WorkspaceException} naming the first of {@code paths} (under {@code root}) that
   * does not exist and would be created outside the workspace through a link.
   */
  static void refuse(Path root, List<Path> paths) throws IOException {
    if (!Files.isDirectory(root)) {
      return; // nothing in it yet: no link to follow
    }
    Path inside = root.toRealPath();
    for (Path path : paths) {
      if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
        continue; // kept (a broken link or a folder in a file's place: WorkspaceInitializer says)
      }
      Path existing = path.getParent();
      while (existing != null && !Files.exists(existing)) {
        existing = existing.getParent();
      }
      if (existing == null || existing.toRealPath().startsWith(inside)) {
        continue;
      }
      Path link = firstLink(root, existing);
      Path target = link.toRealPath();
      throw new WorkspaceException(
          "legio init writes nothing outside the workspace through a link: "
              + link
              + " is a link to "
              + target
              + ", where it would create "
              + target.resolve(link.relativize(path))
              + ". Create that there yourself if it is meant to live there, or replace the link"
              + " with a folder (or point it inside the workspace) and run legio init again;"
              + " nothing was written.");
    }
  }

  /** The first symbolic link on the way from {@code root} down to {@code path}. */
  private static Path firstLink(Path root, Path path) {
    Path at = root;
    for (Path name : root.relativize(path)) {
      at = at.resolve(name);
      if (Files.isSymbolicLink(at)) {
        return at;
      }
    }
    return path;
  }
}
