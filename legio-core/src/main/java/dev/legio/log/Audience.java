package dev.legio.log;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Who a message is addressed to: a non-empty set of names, or everyone ({@code all}).
 *
 * <p>An audience that names {@code all} is everyone, whatever else it names, so it is kept as
 * {@code all} alone. Names keep the order they were given in; duplicates are dropped. {@link #of}
 * validates the names; the constructor takes what a store holds as it is (a log imported from
 * elsewhere may hold names that today's rules refuse, and reading it must not fail).
 */
public record Audience(Set<String> names) {
  public static final Audience ALL = new Audience(Set.of(Names.ALL));

  public Audience {
    names =
        names.contains(Names.ALL)
            ? Set.of(Names.ALL)
            : Collections.unmodifiableSet(new LinkedHashSet<>(names));
  }

  /** A validated audience: at least one name, each valid, or {@code all}. */
  public static Audience of(String... names) {
    return of(List.of(names));
  }

  /** A validated audience: at least one name, each valid, or {@code all}. */
  public static Audience of(Collection<String> names) {
    if (names.isEmpty()) {
      throw new InvalidMessageException(
          "audience is empty: address a message to at least one name, or to 'all'");
    }
    for (String name : names) {
      Names.require(name, "audience name");
    }
    return new Audience(new LinkedHashSet<>(names));
  }

  public boolean isAll() {
    return names.contains(Names.ALL);
  }

  /**
   * True if this audience lets {@code viewer} see a message: caesar and the legatus see everything,
   * anyone else a message addressed to its exact name or to {@code all}. A message is also visible
   * to its sender: ask {@link Message#isVisibleTo}, which applies the whole rule ({@link
   * Visibility}).
   */
  public boolean isVisibleTo(String viewer) {
    return Names.seesEverything(viewer) || isAll() || names.contains(viewer);
  }

  @Override
  public String toString() {
    return String.join(",", names);
  }
}
