package dev.legio.session;

import java.util.ArrayList;
import java.util.List;

/**
 * A status as {@code /status} and {@code legio status} show it: every agent (legatus first), and
 * the channels a {@link ChannelListing} picked with their counts.
 */
public record StatusReport(List<SessionStatus> agents, ChannelListing.Listed channels) {
  public StatusReport {
    agents = List.copyOf(agents);
  }

  /** The agents, then the channels listed: the rows of a status table. */
  public List<SessionStatus> listed() {
    List<SessionStatus> out = new ArrayList<>(agents);
    out.addAll(channels.channels());
    return out;
  }
}
