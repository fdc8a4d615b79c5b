package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.text.MessageFormat;
import dev.legio.log.Names;
import dev.legio.log.Timestamps;
import dev.legio.memoria.AgentMemory;
import dev.legio.memoria.LegatusMemory;
import dev.legio.memoria.MemoryAccess;
import dev.legio.memoria.MemoryEntry;
import dev.legio.memoria.MemoryException;
import dev.legio.memoria.MemoryKind;
import dev.legio.memoria.MemoryXml;
import dev.legio.memoria.SearchHit;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "memory",
    mixinStandardHelpOptions = true,
    description = {
      "Memoria: edicta (directives), acta (shared records) and commentarii (an agent's notes).",
      "--as NAME acts with that agent's rights (default caesar, who has the legatus's).",
      "`export` and `import` move memoria between its store ([memoria] store) and XML files.",
      "`dream` consolidates the agents' long-term memory (MEMORY.md and its topic files)."
    },
    subcommands = {
      MemoryCommand.ListEntries.class,
      MemoryCommand.Show.class,
      MemoryCommand.Publish.class,
      MemoryCommand.Revoke.class,
      MemoryCommand.Search.class,
      MemoryCommand.Clear.class,
      MemoryTransferCommands.Export.class,
      MemoryTransferCommands.Import.class,
      DreamCommand.class
    })
final class MemoryCommand {
  @ParentCommand LegioCommand root;

  /** Options every memory subcommand takes. */
  abstract static class Sub implements Callable<Integer> {
    @ParentCommand MemoryCommand memory;

    @Option(
        names = "--as",
        paramLabel = "NAME",
        defaultValue = Names.CAESAR,
        description = "Act as this agent, with its rights (default: caesar).")
    String as;

    @Option(
        names = "--agent",
        paramLabel = "NAME",
        description = "For commentarii: whose (default: your own, when acting as an agent).")
    String agent;

    PrintWriter out() {
      return memory.root.out;
    }

    @Override
    public Integer call() {
      try (LegioApp app = memory.root.app()) {
        return run(app.memoria().as(as));
      }
    }

    abstract int run(MemoryAccess access);

    LegatusMemory legatusRights(MemoryAccess access, String what) {
      if (access instanceof LegatusMemory l) {
        return l;
      }
      throw new MemoryException(
          "only the legatus (or caesar) may " + what + "; " + as + " may not");
    }

    /** The commentarii owner: --agent, or the agent acting; an agent only reaches its own. */
    String commentariiOwner(MemoryAccess access) {
      if (access instanceof AgentMemory a) {
        if (agent != null && !agent.equals(a.agent())) {
          throw new MemoryException(
              a.agent() + " can reach only its own commentarii; leave out --agent");
        }
        return a.agent();
      }
      if (agent == null) {
        throw new MemoryException("whose commentarii? give --agent NAME");
      }
      return agent;
    }

    List<MemoryEntry> list(MemoryAccess access, MemoryKind kind, boolean includeRevoked) {
      return switch (kind) {
        case EDICTA -> access.listEdicta(includeRevoked);
        case ACTA -> access.listActa();
        case COMMENTARII ->
            access instanceof AgentMemory a
                ? listOwn(a)
                : ((LegatusMemory) access).listCommentarii(commentariiOwner(access));
      };
    }

    private List<MemoryEntry> listOwn(AgentMemory a) {
      commentariiOwner(a);
      return a.listCommentarii();
    }
  }

  static String line(MemoryEntry e) {
    return String.format(
        "  %-32s %-10s %s%s%s",
        e.name(),
        e.author(),
        Timestamps.format(e.createdAt()),
        e.notes().size() > 1 ? "  (" + e.notes().size() + " notes)" : "",
        e.revoked() ? "  (revoked)" : "");
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the entries of a store (edicta, acta, commentarii), or of all three.")
  static final class ListEntries extends Sub {
    @Parameters(arity = "0..1", paramLabel = "STORE", description = "edicta, acta or commentarii")
    String store;

    @Option(names = "--revoked", description = "Include revoked edicta.")
    boolean revoked;

    @Override
    int run(MemoryAccess access) {
      List<MemoryKind> kinds =
          store != null
              ? List.of(MemoryKind.parse(store))
              : access instanceof AgentMemory || agent != null
                  ? List.of(MemoryKind.values())
                  : List.of(MemoryKind.EDICTA, MemoryKind.ACTA);
      for (MemoryKind kind : kinds) {
        List<MemoryEntry> entries = list(access, kind, revoked);
        out()
            .println(
                kind.plural()
                    + (kind == MemoryKind.COMMENTARII ? " of " + commentariiOwner(access) : "")
                    + (entries.isEmpty() ? ": none" : ""));
        entries.forEach(e -> out().println(line(e)));
      }
      return 0;
    }
  }

  @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one entry.")
  static final class Show extends Sub {
    @Parameters(index = "0", paramLabel = "STORE", description = "edictum, actum or commentarium")
    String store;

    @Parameters(index = "1", paramLabel = "NAME")
    String name;

    @Option(names = "--xml", description = "Print the entry as agents receive it.")
    boolean xml;

    @Override
    int run(MemoryAccess access) {
      MemoryKind kind = MemoryKind.parse(store);
      MemoryEntry e =
          switch (kind) {
            case EDICTA -> access.readEdictum(name);
            case ACTA -> access.readActum(name);
            case COMMENTARII ->
                access instanceof AgentMemory a
                    ? own(a).readCommentarium(name)
                    : ((LegatusMemory) access).readCommentarium(commentariiOwner(access), name);
          };
      if (xml) {
        out().println(MemoryXml.element(e));
        return 0;
      }
      out()
          .println(
              kind.singular()
                  + " "
                  + e.name()
                  + (e.centurio() == null ? "" : " of " + e.centurio())
                  + (e.revoked() ? "  (revoked)" : ""));
      for (MemoryEntry.Note n : e.notes()) {
        out().println("  " + n.author() + ", " + Timestamps.format(n.timestamp()) + ":");
        for (String l : MessageFormat.safeText(n.text()).split("\n", -1)) {
          out().println("    " + l);
        }
      }
      if (e.revoked()) {
        out()
            .println(
                "  revoked by "
                    + e.revocation().by()
                    + ", "
                    + Timestamps.format(e.revocation().timestamp())
                    + (e.revocation().reason().isEmpty()
                        ? ""
                        : ": " + MessageFormat.safeText(e.revocation().reason())));
      }
      return 0;
    }

    private AgentMemory own(AgentMemory a) {
      commentariiOwner(a);
      return a;
    }
  }

  @Command(
      name = "publish",
      mixinStandardHelpOptions = true,
      description = {
        "Publish an edictum (legatus, caesar) or an actum, or write a commentarium, signed by --as.",
        "An existing actum or commentarium gets a new note; an edictum name is used once."
      })
  static final class Publish extends Sub {
    @Parameters(index = "0", paramLabel = "STORE", description = "edictum, actum or commentarium")
    String store;

    @Parameters(index = "1", paramLabel = "NAME")
    String name;

    @Parameters(index = "2..*", arity = "1..*", paramLabel = "TEXT")
    List<String> words;

    @Override
    int run(MemoryAccess access) {
      String text = String.join(" ", words);
      MemoryKind kind = MemoryKind.parse(store);
      MemoryEntry e =
          switch (kind) {
            case EDICTA -> legatusRights(access, "publish edicta").publishEdictum(name, text);
            case ACTA -> access.publishActum(name, text);
            case COMMENTARII -> {
              String owner = commentariiOwner(access);
              yield access instanceof AgentMemory a
                  ? a.writeCommentarium(name, text)
                  : ((LegatusMemory) access).writeCommentarium(owner, name, text);
            }
          };
      out()
          .println(
              "Published "
                  + kind.singular()
                  + " "
                  + e.name()
                  + (e.centurio() == null ? "" : " of " + e.centurio())
                  + " as "
                  + access.caller()
                  + (e.notes().size() > 1 ? " (note " + e.notes().size() + ")" : "")
                  + ".");
      return 0;
    }
  }

  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      description = "Revoke an edictum (legatus, caesar): it stays readable, marked revoked.")
  static final class Revoke extends Sub {
    @Parameters(paramLabel = "NAME")
    String name;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why.")
    String reason;

    @Override
    int run(MemoryAccess access) {
      legatusRights(access, "revoke edicta").revokeEdictum(name, reason);
      out().println("Revoked edictum " + name + ".");
      return 0;
    }
  }

  @Command(
      name = "search",
      mixinStandardHelpOptions = true,
      description = "Entries --as may read holding every word of QUERY (case ignored).")
  static final class Search extends Sub {
    @Parameters(arity = "1..*", paramLabel = "QUERY")
    List<String> words;

    @Option(names = "--limit", defaultValue = "20", description = "Most results (default 20).")
    int limit;

    @Override
    int run(MemoryAccess access) {
      if (limit < 1) {
        throw new MemoryException("--limit must be 1 or more");
      }
      List<SearchHit> hits = access.search(String.join(" ", words), limit);
      if (hits.isEmpty()) {
        out().println("No matches.");
      }
      for (SearchHit h : hits) {
        MemoryEntry e = h.entry();
        out()
            .println(
                e.kind().singular()
                    + " "
                    + e.name()
                    + (e.centurio() == null ? "" : " of " + e.centurio())
                    + (e.revoked() ? " (revoked)" : "")
                    + ": "
                    + MessageFormat.safeText(h.snippet()));
      }
      return 0;
    }
  }

  @Command(
      name = "clear",
      mixinStandardHelpOptions = true,
      description =
          "Delete an entry, or with --all every entry of a store (legatus, caesar). Cannot be"
              + " undone.")
  static final class Clear extends Sub {
    @Parameters(index = "0", paramLabel = "STORE", description = "edicta, acta or commentarii")
    String store;

    @Parameters(index = "1", arity = "0..1", paramLabel = "NAME")
    String name;

    @Option(names = "--all", description = "Delete every entry of the store.")
    boolean all;

    @Override
    int run(MemoryAccess access) {
      LegatusMemory legatus = legatusRights(access, "clear memoria");
      if ((name == null) == !all) {
        throw new MemoryException("name one entry, or give --all to clear the whole store");
      }
      MemoryKind kind = MemoryKind.parse(store);
      List<String> deleted = legatus.clear(kind, agent, name);
      out()
          .println(
              deleted.isEmpty()
                  ? "Nothing to clear."
                  : "Deleted " + kind.plural() + ": " + String.join(", ", deleted) + ".");
      return 0;
    }
  }
}
