package dev.legio.workspace;

import dev.legio.files.OwnerOnly;
import dev.legio.files.OwnerWritable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates a workspace: {@code legio.toml} with every key documented and defaulted, the legatus's
 * prompt, two example agents (vorenus and pullo) and the memory folders. Files that already exist
 * are kept as they are, so running it again is safe; a folder where one of its files belongs is
 * refused, not counted as kept, and so is a link to a missing file (named with its target: Legio
 * neither writes through it nor replaces it), and so is a file or folder it would create outside
 * the workspace through a link ({@link LinksOutOfWorkspace}: before anything is written). The log's
 * folder ({@code castra/logs}), when created here, is its owner's only ({@code rwx------} on
 * POSIX). Everything else it creates (the workspace and castra folders, {@code legio.toml}, the
 * prompts, edicta, acta and centuriones) is writable by its owner only ({@code rwxr-xr-x}, {@code
 * rw-r--r--}: {@link OwnerWritable}) whatever the umask, since {@code legio.toml} picks the program
 * Legio runs and where the API key goes, and an edictum steers every agent.
 */
public final class WorkspaceInitializer {
  private static final String TEMPLATE = "/dev/legio/workspace/template/";
  private static final List<String> FILES =
      List.of(
          "legio.toml",
          "castra/legatus/prompt.md",
          "castra/centuriones/vorenus/prompt.md",
          "castra/centuriones/pullo/prompt.md");
  private static final List<String> FOLDERS =
      List.of("castra/edicta", "castra/acta", "castra/centuriones", "castra/logs");

  /** The folders only their owner may read ({@link OwnerOnly}): the log is private data. */
  private static final List<String> PRIVATE_FOLDERS = List.of("castra/logs");

  /** What happened to one path. */
  public record Outcome(Path path, boolean created) {}

  private WorkspaceInitializer() {}

  public static List<Outcome> initialise(Workspace workspace) {
    List<Outcome> outcomes = new ArrayList<>();
    try {
      List<Path> created = new ArrayList<>();
      FOLDERS.forEach(folder -> created.add(workspace.root().resolve(folder)));
      FILES.forEach(file -> created.add(workspace.root().resolve(file)));
      LinksOutOfWorkspace.refuse(workspace.root(), created);
      for (String folder : FOLDERS) {
        Path path = workspace.root().resolve(folder);
        boolean existed = Files.isDirectory(path);
        if (PRIVATE_FOLDERS.contains(folder)) {
          OwnerWritable.createDirectories(path.getParent());
          OwnerOnly.createDirectories(path);
        } else {
          OwnerWritable.createDirectories(path);
        }
        outcomes.add(new Outcome(path, !existed));
      }
      for (String file : FILES) {
        Path path = workspace.root().resolve(file);
        OwnerWritable.createDirectories(path.getParent());
        try (InputStream template =
            WorkspaceInitializer.class.getResourceAsStream(TEMPLATE + file)) {
          if (template == null) {
            throw new IllegalStateException("template " + file + " is missing from the jar");
          }
          OwnerWritable.create(path, template); // never replaces an existing file
          outcomes.add(new Outcome(path, true));
        } catch (FileAlreadyExistsException kept) {
          String broken = Workspace.brokenLink(path);
          if (broken != null) {
            throw new WorkspaceException(
                broken
                    + ": create or restore the target (deploy it, mount its volume), or remove the"
                    + " link and run legio init again to write a fresh file in its place");
          }
          if (Files.isDirectory(path)) {
            throw new WorkspaceException(
                path
                    + " is a folder where Legio keeps a file: move it away, then run legio init"
                    + " again (it creates the file and keeps everything else)");
          }
          outcomes.add(new Outcome(path, false));
        }
      }
    } catch (IOException e) {
      throw new WorkspaceException(
          "cannot create the workspace at " + workspace.root() + ": " + e.getMessage(), e);
    }
    return outcomes;
  }
}
