package dev.legio.session;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the agents a message from caesar is addressed to: {@code @vorenus} anywhere in the text, at
 * its start or after a space or punctuation (so that {@code ann@example.com} is no mention). Names
 * are matched without regard to case; each agent is named once, in order of first mention.
 *
 * <p>A mention runs to the end of its word whatever the script: {@code @vorеnus} written with a
 * Cyrillic {@code е} is reported whole as an unknown agent, never cut to {@code @vor}.
 */
public final class Mentions {
  private static final Pattern MENTION =
      Pattern.compile("(?<![\\p{L}\\p{N}_.@-])@(\\p{L}[\\p{L}\\p{N}\\p{M}_-]{0,63})");

  private Mentions() {}

  /**
   * @param known the agents that exist
   * @param unknown names mentioned that are no agent (empty when all are known)
   */
  public record Routing(List<String> targets, List<String> unknown) {}

  public static Routing parse(String text, Set<String> known) {
    Set<String> targets = new LinkedHashSet<>();
    Set<String> unknown = new LinkedHashSet<>();
    Matcher m = MENTION.matcher(text);
    while (m.find()) {
      String name = trimTrailing(m.group(1).toLowerCase(Locale.ROOT));
      (known.contains(name) ? targets : unknown).add(name);
    }
    return new Routing(new ArrayList<>(targets), new ArrayList<>(unknown));
  }

  /** "@vorenus-" at the end of a sentence means vorenus. */
  private static String trimTrailing(String name) {
    int end = name.length();
    while (end > 1 && (name.charAt(end - 1) == '-' || name.charAt(end - 1) == '_')) {
      end--;
    }
    return name.substring(0, end);
  }
}
