package dev.legio.session;

import dev.legio.agents.AgentDirectory;
import dev.legio.agents.AgentProfile;
import dev.legio.agents.Roster;
import dev.legio.backend.ContextUse;
import dev.legio.log.Names;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What every owner is doing and how its session stands: {@code /status}, {@code legio status} and
 * the centuriones' status block of the legatus's turns. Which channels a status lists is {@link
 * ChannelListing}'s rule.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The status lists the legatus first, then every centurio in the directory's order, then
 *       every channel that has a record; an agent without a record is listed too. A legatus whose
 *       {@code prompt.md} cannot be used is listed as {@value #BROKEN} (the directory's problems
 *       say why) and hides no one.
 *   <li>A session row that cannot be read as a record ({@link DamagedSession}) hides no one either:
 *       its owner is listed as one without a record (an agent) or not at all (a channel), and the
 *       row is named in {@link StatusReport#damagedSessions()} with what is wrong and what to do.
 *   <li>Each owner's activity is as {@link Activity#of} says (this process's view, else working
 *       while another process holds its lease).
 *   <li>A session's age is measured from its creation while it is active; none otherwise.
 *   <li>The legatus's status block gives each centurio's activity and, for those whose active
 *       record has context figures against a known window, how full it is ({@code 42%}).
 * </ul>
 */
final class StatusBoard {
  private final AgentDirectory agents;
  private final SessionStore store;
  private final LeaseGate leases;
  private final Clock clock;
  private final Function<Owner, OwnerSlot> held;
  private final Duration channelIdleTimeout;

  /**
   * @param held the slot this process holds for an owner; null when it holds none
   * @param channelIdleTimeout how long a channel stays open unused ({@link ChannelListing})
   */
  StatusBoard(
      AgentDirectory agents,
      SessionStore store,
      LeaseGate leases,
      Clock clock,
      Function<Owner, OwnerSlot> held,
      Duration channelIdleTimeout) {
    this.agents = agents;
    this.store = store;
    this.leases = leases;
    this.clock = clock;
    this.held = held;
    this.channelIdleTimeout = channelIdleTimeout;
  }

  /**
   * Every agent, and the channels {@code listing} picks (of those with a readable record) with
   * their counts; and the damaged rows, whatever the listing.
   */
  StatusReport status(ChannelListing listing) {
    Instant now = clock.instant();
    SessionListing rows = store.listing();
    List<SessionStatus> agentsFirst = new ArrayList<>();
    List<SessionStatus> channels = new ArrayList<>();
    for (SessionStatus s : statuses(rows.records(), now)) {
      (Owner.of(s.owner()).isChannel() ? channels : agentsFirst).add(s);
    }
    return new StatusReport(
        agentsFirst, listing.select(channels, now, channelIdleTimeout), rows.damaged());
  }

  /** Every agent (legatus first) and every channel with a readable record, with its session. */
  List<SessionStatus> status() {
    return statuses(store.list(), clock.instant());
  }

  private List<SessionStatus> statuses(List<SessionRecord> stored, Instant now) {
    Map<String, SessionRecord> records = new LinkedHashMap<>();
    for (SessionRecord r : stored) {
      records.put(r.owner(), r);
    }
    Set<String> leased = leases.leasedOwners();
    List<SessionStatus> out = new ArrayList<>();
    out.add(legatusStatus(records.remove(Names.LEGATUS), leased, now));
    for (AgentProfile p : agents.centuriones()) {
      out.add(
          statusOf(Owner.agent(p.name()), p.description(), records.remove(p.name()), leased, now));
    }
    for (SessionRecord r : records.values()) {
      Owner owner = Owner.of(r.owner());
      if (owner.isChannel()) {
        out.add(statusOf(owner, "channel", r, leased, now));
      }
    }
    return out;
  }

  /**
   * The legatus's line; {@value #BROKEN} (its description saying why) when its {@code prompt.md}
   * cannot be used: the other agents are listed all the same.
   */
  private SessionStatus legatusStatus(SessionRecord r, Set<String> leased, Instant now) {
    Owner legatus = Owner.agent(Names.LEGATUS);
    String problem = agents.legatusProblem();
    if (problem == null) {
      return statusOf(legatus, agents.legatus().description(), r, leased, now);
    }
    Duration age = r != null && r.active() ? Duration.between(r.createdAt(), now) : null;
    return new SessionStatus(legatus.name(), "prompt.md is broken: " + problem, BROKEN, r, age);
  }

  /** The status of an agent whose prompt file cannot be used: it takes no message. */
  static final String BROKEN = "broken";

  private SessionStatus statusOf(
      Owner owner, String description, SessionRecord r, Set<String> leased, Instant now) {
    Duration age = r != null && r.active() ? Duration.between(r.createdAt(), now) : null;
    return new SessionStatus(owner.name(), description, activity(owner, leased).label(), r, age);
  }

  private Activity activity(Owner owner, Set<String> leased) {
    OwnerSlot slot = held.apply(owner);
    return Activity.of(slot == null ? null : slot.activity, owner.name(), leased);
  }

  /** The centuriones' status block of a legatus turn. */
  String centurioStatusXml(List<AgentProfile> centuriones) {
    Set<String> leased = leases.leasedOwners();
    Map<String, String> activity = new TreeMap<>();
    for (AgentProfile p : centuriones) {
      activity.put(p.name(), activity(Owner.agent(p.name()), leased).label());
    }
    return Roster.statusXml(activity, contextOf(centuriones));
  }

  /**
   * How full each centurio's active session is ({@code 42%}), for those whose record has figures.
   */
  private Map<String, String> contextOf(List<AgentProfile> centuriones) {
    Set<String> names = new TreeSet<>();
    centuriones.forEach(p -> names.add(p.name()));
    Map<String, String> context = new TreeMap<>();
    for (SessionRecord record : store.list()) {
      ContextUse use = record.context();
      if (names.contains(record.owner()) && record.active() && use != null && use.window() > 0) {
        context.put(record.owner(), Math.round(use.percent()) + "%");
      }
    }
    return context;
  }
}
