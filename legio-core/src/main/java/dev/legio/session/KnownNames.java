package dev.legio.session;

import dev.legio.errors.Quoted;
import dev.legio.log.Audience;
import dev.legio.log.InvalidMessageException;
import dev.legio.log.Names;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The names the praetorium knows, and the one way an unknown name is refused: {@code legio say
 * @nosuch}, {@code legio log post --to=nosuch} (or {@code --from}), {@code legio history --viewer
 * nosuch}, {@code GET /api/v1/history?viewer=nosuch}, and the legatus's {@code post_nuntius} and
 * {@code get_history} all refuse it naming the unknown names and the known ones, before anything is
 * logged. A command that names one agent ({@code legio reset}, {@code DELETE /api/v1/sessions/NAME},
 * {@code legio memory dream}, the API's long-term memory) refuses a name that is none in one
 * wording too ({@link #noAgentNamed}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The agents are the legatus and the centuriones ({@link SessionEngine#knownAgents}); caesar's
 *       message may {@code @mention} only them.
 *   <li>A message may be addressed to caesar or an agent, to {@code all} (everyone), or to a channel
 *       ({@code telegram:123}). Channels come into being on first use, so any well-formed channel
 *       name is taken.
 *   <li>The log may be seen as caesar, an agent or a channel sees it, and a message may come from
 *       one of them; {@code all} is no viewer and no sender.
 *   <li>A name's form is checked first ({@link Names#require}): a malformed name gets that message.
 * </ul>
 *
 * @param agents the legatus and the centuriones, as {@link SessionEngine#knownAgents} gives them
 */
public record KnownNames(Set<String> agents) {
  /** Keeps the agents sorted by name, as every refusal lists them. */
  public KnownNames {
    agents = Collections.unmodifiableSet(new TreeSet<>(agents));
  }

  /** Why caesar's message is refused for mentioning {@code unknown} (none of them an agent). */
  public String unknownMentions(List<String> unknown) {
    return refusal("agent", "@", unknown, agents());
  }

  /**
   * Why a command that names one agent ({@code legio reset NAME}, {@code DELETE
   * /api/v1/sessions/NAME}) is refused when {@code name} is none: {@code no agent named 'brutus'.
   * Known agents: legatus, pullo, vorenus.}
   */
  public String noAgentNamed(String name) {
    return "no agent named '"
        + Quoted.of(name)
        + "'. Known agents: "
        + (agents.isEmpty() ? "(none)" : String.join(", ", agents))
        + ".";
  }

  /**
   * A message's audience, when every name is known.
   *
   * @throws InvalidMessageException naming the unknown names and the known ones
   */
  public Audience audience(Collection<String> names) {
    Audience audience = Audience.of(names); // each name well-formed, at least one
    if (audience.isAll()) {
      return audience;
    }
    List<String> unknown = new ArrayList<>();
    for (String name : audience.names()) {
      if (!isParticipant(name)) {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty()) {
      List<String> known = new ArrayList<>(participants());
      known.add(Names.ALL + " (everyone)");
      throw new InvalidMessageException(refusal("name", "", unknown, known));
    }
    return audience;
  }

  /**
   * {@code viewer}, when it is a known name.
   *
   * @throws InvalidMessageException naming it and the known names
   */
  public String viewer(String viewer) {
    return participant(viewer, "viewer");
  }

  /**
   * {@code sender}, when it is a known name (caesar, an agent or a channel).
   *
   * @throws InvalidMessageException naming it and the known names
   */
  public String sender(String sender) {
    return participant(sender, "sender");
  }

  private String participant(String name, String what) {
    Names.require(name, what);
    if (!isParticipant(name)) {
      throw new InvalidMessageException(refusal(what, "", List.of(name), participants()));
    }
    return name;
  }

  private boolean isParticipant(String name) {
    return Names.CAESAR.equals(name) || agents.contains(name) || name.indexOf(':') > 0;
  }

  /** Caesar, then the agents in name order. */
  private List<String> participants() {
    List<String> names = new ArrayList<>();
    names.add(Names.CAESAR);
    names.addAll(agents);
    return names;
  }

  private static String refusal(
      String what, String sigil, List<String> unknown, Collection<String> known) {
    return "Unknown "
        + what
        + " "
        + String.join(", ", unknown.stream().map(n -> sigil + Quoted.of(n)).toList())
        + ". Known "
        + (what.equals("agent") ? "agents" : "names")
        + ": "
        + String.join(", ", known.stream().map(n -> sigil + n).toList())
        + ".";
  }
}
