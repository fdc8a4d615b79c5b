package dev.legio.app.server;

import dev.legio.session.ConversationHome;
import dev.legio.session.SessionStore;
import dev.legio.store.NodeDirectory;
import dev.legio.task.TaskSessions;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which node should run a turn, when several nodes share one database: the node that holds the
 * session's back-end conversation on its own disk.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Only back-ends whose conversations live on a node's disk count ({@code claude-cli}: the
 *       CLI's session files under the user's home). Every other back-end's conversation is in the
 *       database, so any node runs its turns.
 *   <li>A session's node is the one that ran its last turn (the record's {@code backend_node}). A
 *       turn that arrives at another node is sent to that node when it is live (it announced itself
 *       within the lease time, see {@link NodeDirectory}) at a URL other than this node's own.
 *   <li>No preference, and the turn runs here, when the session has no active record, its node is
 *       this one or unknown, the node is not live, or reading any of this fails: the CLI's resume
 *       then fails on this node and the session is rebuilt from the log, as a lost CLI session is.
 *   <li>Which other nodes are live is read at most once a second ({@link OtherLiveNodes}); while no
 *       other node is, no session's home is read: a node alone reads nothing per turn.
 *   <li>A request another node sent here is never sent on ({@link #FORWARDED_HEADER}), so two nodes
 *       that each think the other holds a session cannot pass a turn back and forth.
 * </ul>
 */
public final class SessionAffinity {
  private static final Logger log = LoggerFactory.getLogger(SessionAffinity.class);

  /** The header on a request one node sends to another: the sending node's name. */
  public static final String FORWARDED_HEADER = "Legio-Forwarded-By";

  /** The back-ends whose conversations live on a node's own disk. */
  public static final Set<String> NODE_LOCAL_BACKENDS = Set.of("claude-cli");

  /** No preference: every turn runs where it arrives (one node, or no database directory). */
  public static final SessionAffinity NONE =
      new SessionAffinity(
          null, null, null, "", Duration.ofSeconds(30), Clock.systemUTC(), Set.of());

  private final NodeDirectory nodes;
  private final SessionStore sessions;
  private final TaskSessions tasks;
  private final String node;
  private final Set<String> nodeLocalBackends;
  private final OtherLiveNodes others;
  private volatile URI self;

  /**
   * @param node this node's name
   * @param ttl how recently a node must have announced itself to count as live (the lease time)
   * @param nodeLocalBackends the back-end kinds whose conversations live on a node's disk
   */
  public SessionAffinity(
      NodeDirectory nodes,
      SessionStore sessions,
      TaskSessions tasks,
      String node,
      Duration ttl,
      Clock clock,
      Set<String> nodeLocalBackends) {
    this.nodes = nodes;
    this.sessions = sessions;
    this.tasks = tasks;
    this.node = Objects.requireNonNull(node, "node");
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(clock, "clock");
    this.nodeLocalBackends = Set.copyOf(nodeLocalBackends);
    this.others =
        nodes == null
            ? null
            : new OtherLiveNodes(
                () -> nodes.liveNodes(clock.instant(), ttl), () -> self, System::nanoTime);
  }

  /** This node's own URL, once its server listens (a node never sends a turn to itself). */
  void serving(URI url) {
    this.self = url;
  }

  /** The node that should run the next turn of agent or channel {@code owner}, if not this one. */
  public Optional<URI> peerFor(String owner) {
    if (nodes == null || sessions == null) {
      return Optional.empty();
    }
    try {
      return peerHolding(() -> sessions.conversationHome(owner));
    } catch (RuntimeException e) {
      log.warn("could not tell which node holds the session of {}; running it here", owner, e);
      return Optional.empty();
    }
  }

  /** The node that should run the next turn of the (key, agent) task session, if not this one. */
  public Optional<URI> peerForTask(String sessionKey, String agent) {
    if (nodes == null || tasks == null || sessionKey == null || agent == null) {
      return Optional.empty();
    }
    try {
      return peerHolding(() -> tasks.conversationHome(sessionKey, agent));
    } catch (RuntimeException e) {
      log.warn("could not tell which node holds a task session of {}; running it here", agent, e);
      return Optional.empty();
    }
  }

  /**
   * The other live node where the conversation that {@code home} reads is; {@code home} is read
   * only while another node is live.
   */
  private Optional<URI> peerHolding(Supplier<Optional<ConversationHome>> home) {
    List<NodeDirectory.Node> elsewhere = others.get();
    return elsewhere.isEmpty()
        ? Optional.empty()
        : home.get().flatMap(h -> liveElsewhere(h, elsewhere));
  }

  /** The live node among {@code elsewhere} where {@code home} is, for a node-local back-end. */
  private Optional<URI> liveElsewhere(ConversationHome home, List<NodeDirectory.Node> elsewhere) {
    String holder = home.node();
    if (!nodeLocalBackends.contains(home.backend()) || holder.equals(node)) {
      return Optional.empty();
    }
    for (NodeDirectory.Node n : elsewhere) {
      if (n.name().equals(holder)) {
        return Optional.of(n.url());
      }
    }
    return Optional.empty();
  }
}
