package dev.legio.app.server;

import dev.legio.log.Names;
import dev.legio.longterm.MemoryFileRead;
import dev.legio.longterm.MemoryFolder;
import dev.legio.session.KnownNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/v1/agents/{name}/memory}: an agent's long-term memory, read-only: its {@code
 * MEMORY.md} and topic files ({@code [memory] dir}/{name}/*.md), as {@code {"agent", "files":
 * [{"name", "text"}]}}, {@code MEMORY.md} first, then by name.
 *
 * <p>Rules: only agents of the castra have a folder (404 otherwise, before any file is touched); a
 * folder not made yet is an empty list; hidden and non-Markdown files (locks, state) are never
 * shown; a file that is a symbolic link (or not a regular file) is left out with a warning in the
 * log, its target never read ({@link MemoryFileRead}); a file that is not UTF-8 (saved as Latin-1)
 * is shown with U+FFFD for each byte that is not, and a {@code "warning"} naming it, the line, and
 * what to do (never a 500); nothing is written.
 */
final class AgentMemoryEndpoint implements Endpoint {
  private static final Logger log = LoggerFactory.getLogger(AgentMemoryEndpoint.class);

  private final ServerParts parts;

  AgentMemoryEndpoint(ServerParts parts) {
    this.parts = parts;
  }

  @Override
  public void handle(ApiExchange exchange) throws Exception {
    String agent = exchange.pathParam("name");
    if (!MemoryFolder.isAgentName(agent)
        || !(agent.equals(Names.LEGATUS) || parts.agents().centurio(agent).isPresent())) {
      throw ApiException.notFound(new KnownNames(parts.agents().names()).noAgentNamed(agent));
    }
    if (parts.memoryDir() == null) {
      throw ApiException.notFound("this server was started without a [memory] dir");
    }
    MemoryFolder folder = MemoryFolder.of(parts.memoryDir(), agent);
    List<String> names = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder.folder())) {
      files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".md") && !n.startsWith("."))
          .sorted(
              (a, b) ->
                  a.equals(MemoryFolder.MEMORY_FILE)
                      ? -1
                      : b.equals(MemoryFolder.MEMORY_FILE) ? 1 : a.compareTo(b))
          .forEach(names::add);
    } catch (NoSuchFileException e) {
      // no folder yet: nothing remembered
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (String name : names) {
      MemoryFileRead.Result read;
      try {
        read = MemoryFileRead.of(folder.folder(), name);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot read " + folder.file(name) + ": " + e.getMessage(), e);
      }
      switch (read) {
        case MemoryFileRead.Text t -> {
          Map<String, Object> file = new LinkedHashMap<>();
          file.put("name", name);
          file.put("text", t.text());
          out.add(file);
        }
        case MemoryFileRead.NotUtf8 n -> {
          // Shown, as a reader wants it, with what to fix: the file is never rewritten here.
          Map<String, Object> file = new LinkedHashMap<>();
          file.put("name", name);
          file.put("text", n.text());
          file.put("warning", n.reason());
          out.add(file);
        }
        case MemoryFileRead.Missing m -> {} // removed meanwhile
        case MemoryFileRead.Refused r -> log.warn("memory of {}: skipped: {}", agent, r.reason());
      }
    }
    exchange.json(200, Map.of("agent", agent, "files", out));
  }
}
