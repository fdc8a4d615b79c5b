package dev.legio.session;

import dev.legio.log.Names;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Resets: closes an owner's session so that its next request starts a fresh one, bootstrapped from
 * the praetorium ({@code legio reset}, {@code DELETE /api/v1/sessions/NAME}, the chat's and
 * Telegram's {@code /reset}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>An agent's name must be one of the agents; a channel ({@code telegram:123}) may be one this
 *       process does not hold (another node serves it), whose stored session is closed.
 *   <li>A channel with no session, neither held here nor a row in the store (it never wrote, its
 *       row expired, or the name is mistyped), is refused as an unknown agent is: there is nothing
 *       to reset, and a reset that answered "nothing to do" would hide the typo. A channel whose
 *       session is already closed has a row, and its reset is "no active session", as an agent's.
 *   <li>A name that is no agent of the castra any more (its folder removed) but still has a session
 *       row, readable or damaged, is reset all the same: its row is closed (a damaged one deleted),
 *       which is how the operator cleans up after removing an agent. A name with no row is refused,
 *       naming the known agents.
 *   <li>A reset waits until no turn of the owner runs, on any node, by {@link SessionEditGate}'s
 *       rules; a turn that outlasts {@code lock_wait} refuses it ({@link SessionBusyException}).
 *   <li>A reset of {@code all} resets every agent, and the left-over row of every agent removed
 *       from the castra (as a reset of its name does; channels are not agents and keep theirs),
 *       going past those busy with a turn, and says which were busy.
 * </ul>
 */
public final class SessionResets {
  private final Supplier<Set<String>> agents;
  private final OwnerSlots slots;
  private final SessionEditGate edits;
  private final SessionLifecycle lifecycle;
  private final SessionStore store;

  SessionResets(
      Supplier<Set<String>> agents,
      OwnerSlots slots,
      SessionEditGate edits,
      SessionLifecycle lifecycle,
      SessionStore store) {
    this.agents = agents;
    this.slots = slots;
    this.edits = edits;
    this.lifecycle = lifecycle;
    this.store = store;
  }

  /**
   * What a reset of every agent did.
   *
   * @param closed the agents whose session it closed
   * @param busy the agents it left, a turn of theirs running past {@code lock_wait}
   */
  public record Done(List<String> closed, List<String> busy) {}

  /** Resets {@code name}'s session; false when it had no active one. */
  boolean reset(String name) {
    Names.require(name, "agent");
    Owner owner = Owner.of(name);
    OwnerSlot slot;
    if (owner.isChannel()) {
      OwnerSlot held = slots.held(owner);
      if (held == null && !hasRow(name)) {
        throw new IllegalArgumentException(noSessionForChannel(name));
      }
      slot = held != null ? held : new OwnerSlot(owner); // its stored session, under its lease
    } else if (agents.get().contains(name)) {
      slot = slots.agent(name);
    } else if (hasRow(name)) {
      slot = new OwnerSlot(owner); // an agent removed from the castra: its stored session only
    } else {
      throw new IllegalArgumentException(new KnownNames(agents.get()).noAgentNamed(name));
    }
    try {
      return edits.whileNoTurnRuns(
          name, writer -> lifecycle.close(slot, RebuildReason.RESET, writer));
    } catch (SessionBusyException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IllegalStateException("could not reset " + name + ": " + e.getMessage(), e);
    }
  }

  /** The refusal of a reset of a channel with no session: what it means and where to look. */
  static String noSessionForChannel(String channel) {
    return "no session for channel "
        + channel
        + ": it never wrote, or its session expired, so there is nothing to reset; check the"
        + " name against the channels with a session (`legio status --channels all`, GET"
        + " /api/v1/status?channels=all)";
  }

  /** Whether the store holds a session row of {@code owner}, readable or damaged. */
  private boolean hasRow(String owner) {
    try {
      return store.find(owner).isPresent();
    } catch (DamagedSessionException e) {
      return true;
    }
  }

  /**
   * Whose sessions a reset of {@code all} resets: the agents, then the owners of rows left by
   * agents removed from the castra, by name (no channel).
   */
  Set<String> agentsAndLeftOverRows() {
    Set<String> known = agents.get();
    Set<String> names = new LinkedHashSet<>(known);
    SessionListing rows = store.listing();
    Stream.concat(
            rows.records().stream().map(SessionRecord::owner),
            rows.damaged().stream().map(DamagedSession::owner))
        .filter(owner -> !Owner.of(owner).isChannel() && !known.contains(owner))
        .sorted()
        .forEach(names::add);
    return names;
  }

  /** Resets every agent's session but {@code except}'s, going past those busy with a turn. */
  Done resetAll(Set<String> except) {
    List<String> closed = new ArrayList<>();
    List<String> busy = new ArrayList<>();
    for (String name : agentsAndLeftOverRows()) {
      if (except.contains(name)) {
        continue;
      }
      try {
        if (reset(name)) {
          closed.add(name);
        }
      } catch (SessionBusyException e) {
        busy.add(name);
      }
    }
    return new Done(closed, busy);
  }
}
