package dev.legio.session;

import java.util.ArrayList;
import java.util.List;

/**
 * A status as {@code /status} and {@code legio status} show it ({@link StatusBoard}'s rules): every
 * agent (legatus first), the channels a {@link ChannelListing} picked with their counts, and the
 * session rows that could not be read as a record.
 *
 * @param agents every agent, legatus first (one whose row is damaged as one without a record)
 * @param channels the channels listed, of those with a readable record, and how many there are
 * @param damagedSessions the rows of the session store that could not be read as a record, each
 *     naming what is wrong and what to do ({@link SessionListing}), whatever the listing
 */
public record StatusReport(
    List<SessionStatus> agents,
    ChannelListing.Listed channels,
    List<DamagedSession> damagedSessions) {
  public StatusReport {
    agents = List.copyOf(agents);
    damagedSessions = List.copyOf(damagedSessions);
  }

  /** The agents, then the channels listed: the rows of a status table. */
  public List<SessionStatus> listed() {
    List<SessionStatus> out = new ArrayList<>(agents);
    out.addAll(channels.channels());
    return out;
  }

  /** True when {@code owner}'s session row is one of the damaged. */
  public boolean damaged(String owner) {
    return damagedSessions.stream().anyMatch(d -> d.owner().equals(owner));
  }
}
