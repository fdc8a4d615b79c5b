package dev.legio.session;

import dev.legio.log.Names;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who a message goes to, or why it is refused before anything is logged.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A message from caesar goes to the agents it {@code @mentions} ({@link Mentions}), in the
 *       order they are mentioned, else to the legatus. A mention of an unknown agent refuses the
 *       whole message, listing the known agents ({@link KnownNames}).
 *   <li>A dispatch (the legatus's {@code dispatch} tool) names its centuriones; its text is sent as
 *       it is ({@code @mentions} in it are not parsed). An unknown name, the legatus (whose own
 *       turn would wait for itself) and an empty list are refused; a name given twice counts once.
 *   <li>An empty or blank text is refused.
 * </ul>
 */
final class Recipients {
  private Recipients() {}

  /** Where a message goes: its targets, or the reason it is refused. */
  sealed interface Decision permits To, Refused {}

  /** The message goes to {@code targets}, in this order. */
  record To(List<String> targets) implements Decision {}

  /** The message is refused; {@code why} says what to fix. */
  record Refused(String why) implements Decision {}

  private static final Refused EMPTY = new Refused("Nothing to send: the message is empty.");

  static Decision ofCaesarsMessage(String text, Set<String> known) {
    if (text == null || text.isBlank()) {
      return EMPTY;
    }
    Mentions.Routing routing = Mentions.parse(text, known);
    if (!routing.unknown().isEmpty()) {
      return new Refused(new KnownNames(known).unknownMentions(routing.unknown()));
    }
    return new To(routing.targets().isEmpty() ? List.of(Names.LEGATUS) : routing.targets());
  }

  static Decision ofDispatch(List<String> centuriones, String text, Set<String> centurioNames) {
    if (text == null || text.isBlank()) {
      return EMPTY;
    }
    for (String target : centuriones) {
      if (!centurioNames.contains(target)) {
        return new Refused(
            "No centurio named '"
                + target
                + "'. Centuriones: "
                + String.join(", ", new TreeSet<>(centurioNames))
                + ".");
      }
    }
    if (centuriones.isEmpty()) {
      return new Refused("No centurio named: say who the message is for.");
    }
    return new To(List.copyOf(new LinkedHashSet<>(centuriones)));
  }
}
