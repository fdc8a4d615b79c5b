package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.config.MemoriaSettings;
import dev.legio.errors.FailureText;
import dev.legio.memoria.FileMemoryStore;
import dev.legio.memoria.MemoriaTransfer;
import dev.legio.memoria.MemoryException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code legio memory export} and {@code legio memory import}: memoria between the store {@code
 * [memoria] store} names and XML files (the files store's format, folder for folder: {@code
 * edicta/}, {@code acta/}, {@code centuriones/NAME/commentarii/}), by {@link MemoriaTransfer}'s
 * rules. An import holding commentarii of a name that is no centurio of the castra is refused
 * ({@link dev.legio.memoria.Memoria#importFrom}). Either command exits 1 when entries conflicted
 * (the target's and the source's grew apart), listing them; {@code --overwrite} makes the source
 * win.
 */
final class MemoryTransferCommands {
  private MemoryTransferCommands() {}

  /** What the two commands share. */
  abstract static class Transfer implements Callable<Integer> {
    @ParentCommand MemoryCommand memory;

    @Option(
        names = "--overwrite",
        description = "Replace entries that differ in the target (default: leave them, report).")
    boolean overwrite;

    /** The folder given, resolved against the current directory, or the castra. */
    Path folder(LegioApp app, Path given) {
      if (given == null) {
        return app.workspace().castra();
      }
      return memory.root.context.currentDirectory().resolve(given).toAbsolutePath().normalize();
    }

    /** Refuses to copy the files store onto itself. */
    static void requireAnotherStore(LegioApp app, Path folder, String what) {
      if (app.config().memoria().store() == MemoriaSettings.Store.FILES
          && folder.equals(app.workspace().castra().toAbsolutePath().normalize())) {
        throw new MemoryException(
            "memoria is kept in these files already ([memoria] store = \"files\" in legio.toml),"
                + " so there is nothing to "
                + what
                + "; give a folder elsewhere, or set store = \"database\" first");
      }
    }

    int report(String done, Path folder, MemoriaTransfer.Result result) {
      PrintWriter out = memory.root.out;
      out.println(
          done
              + " "
              + result.entries()
              + (result.entries() == 1 ? " entry " : " entries ")
              + (this instanceof Export ? "to " : "from ")
              + folder
              + ": "
              + result.copied()
              + " copied, "
              + result.updated()
              + " updated, "
              + result.unchanged()
              + " unchanged"
              + (result.conflicts().isEmpty() ? "." : ", " + result.conflicts().size() + " left"));
      if (result.conflicts().isEmpty()) {
        return 0;
      }
      PrintWriter err = memory.root.err;
      err.println(
          "legio: these entries differ in the target and were left as they are (--overwrite"
              + " replaces them):");
      result.conflicts().forEach(c -> err.println("  " + c));
      return LegioCommand.FAILURE;
    }
  }

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description = {
        "Write memoria (edicta, acta, every agent's commentarii) from its store as XML files, the"
            + " files store's format: DIR/edicta/NAME.xml, DIR/acta/NAME.xml,"
            + " DIR/centuriones/AGENT/commentarii/NAME.xml.",
        "Nothing is lost: notes, authors, times, revocations. An entry DIR already holds is left"
            + " alone when equal, brought up to date when older, else reported (--overwrite"
            + " replaces it)."
      })
  static final class Export extends Transfer {
    @Option(
        names = "--to",
        paramLabel = "DIR",
        description = "Where to write (default: the castra, where the files store keeps them).")
    Path to;

    @Override
    public Integer call() {
      try (LegioApp app = memory.root.app()) {
        Path folder = folder(app, to);
        // The folder is made (or found) before anything is read, so a path that cannot hold one
        // is refused even when there is nothing to export.
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
          throw new MemoryException(folder + " is a file: give --to a folder (it is created)");
        }
        try {
          Files.createDirectories(folder);
        } catch (java.io.IOException e) {
          throw new MemoryException(
              "cannot create the folder "
                  + folder
                  + ": "
                  + FailureText.of(e)
                  + "; give --to another");
        }
        requireAnotherStore(app, folder, "export");
        MemoriaTransfer.Result result =
            MemoriaTransfer.copy(app.memoriaStore(), new FileMemoryStore(folder), overwrite);
        return report("Exported", folder, result);
      }
    }
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description = {
        "Read memoria from XML files (as `legio memory export` or the files store writes them)"
            + " into the store [memoria] store names.",
        "An entry the store already holds is left alone when equal, brought up to date when"
            + " older, else reported (--overwrite replaces it)."
      })
  static final class Import extends Transfer {
    @Option(
        names = "--from",
        paramLabel = "DIR",
        description = "Where to read (default: the castra, where the files store keeps them).")
    Path from;

    @Override
    public Integer call() {
      try (LegioApp app = memory.root.app()) {
        Path folder = folder(app, from);
        if (!Files.isDirectory(folder)) {
          throw new MemoryException(folder + " is not a folder: give --from the exported folder");
        }
        requireAnotherStore(app, folder, "import");
        // Commentarii of a name that is no centurio here are refused before anything is written.
        MemoriaTransfer.Result result =
            app.memoria().importFrom(new FileMemoryStore(folder), overwrite);
        return report("Imported", folder, result);
      }
    }
  }
}
