package dev.legio.app.conversation;

import dev.legio.config.SessionSettings;
import dev.legio.errors.Quoted;
import dev.legio.log.Names;
import dev.legio.session.DispatchListener;
import dev.legio.session.Mentions;
import dev.legio.session.Outcome;
import dev.legio.session.Reply;
import dev.legio.session.RequestKey;
import dev.legio.session.SessionEngine;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The two ways in to the agents that every door shares: the HTTP API, the web console and the chat
 * gateways call these and nothing else to start a turn, so that no door has a path of its own.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li><b>Caesar's path</b> ({@link #fromCaesar}): the operator's text, routed by its
 *       {@code @mentions} as {@code legio say} routes it. A mention of an unknown agent is refused
 *       ({@link UnknownAgentsException}, listing the agents) before anything is logged.
 *   <li><b>A channel's path</b> ({@link #inChannel}): a turn of the channel session {@code
 *       source:id} (created on first use; the engine's pool keeps its limit, lease, idle expiry and
 *       context threshold), in the role {@code [channels.roles]} maps its source to. Who speaks
 *       reaches the model as the {@link Speaker}'s first line. A key that is not {@code source:id}
 *       is refused ({@link #channelKeyProblem}).
 *   <li>Both take an optional {@link RequestKey}: a request sent again with its key is logged once
 *       and answered once per agent (a client's retry, a gateway's message taken again after a
 *       crash).
 *   <li>A reply is {@linkplain #busy busy} when its session stayed busy past {@code
 *       lock_wait_seconds}: nothing was logged for it and the sender should try again.
 * </ul>
 */
public final class Conversations {
  private final SessionEngine engine;
  private final SessionSettings settings;

  public Conversations(SessionEngine engine, SessionSettings settings) {
    this.engine = engine;
    this.settings = settings;
  }

  /**
   * Caesar's message: routed, logged and answered as {@code legio say} does.
   *
   * @throws UnknownAgentsException when the text mentions an agent that does not exist
   * @throws dev.legio.log.InvalidMessageException when the text is empty or too long
   */
  public Outcome fromCaesar(String text, DispatchListener listener) {
    return fromCaesar(text, listener, null);
  }

  /**
   * As {@link #fromCaesar(String, DispatchListener)}, once per {@code key} (null: none): see {@link
   * RequestKey}.
   *
   * @throws dev.legio.session.RequestKeyReusedException when the key came with another message
   */
  public Outcome fromCaesar(String text, DispatchListener listener, RequestKey key) {
    Set<String> known = engine.knownAgents();
    Mentions.Routing routing = Mentions.parse(text, known);
    if (!routing.unknown().isEmpty()) {
      throw new UnknownAgentsException(routing.unknown(), known);
    }
    return engine.handle(text, listener, key);
  }

  /**
   * What is wrong with a channel key, if anything: it must be {@code source:id} as Legio names
   * channels ({@code telegram:123}).
   */
  public static Optional<String> channelKeyProblem(String key) {
    if (key == null || key.indexOf(':') < 0 || !Names.isValid(key)) {
      return Optional.of(
          "'"
              + Quoted.of(key)
              + "' is not a channel: use source:id, e.g. telegram:123 (source: 1-32 characters, a"
              + " lowercase letter first, then lowercase letters, digits, '-' or '_'; id: 1-64"
              + " letters, digits, '-' or '_')");
    }
    return Optional.empty();
  }

  /**
   * A turn of the channel {@code key}, spoken by {@code speaker}.
   *
   * @throws IllegalArgumentException when the key is not {@code source:id}
   * @throws dev.legio.log.InvalidMessageException when the text is empty or too long
   */
  public ChannelTurn inChannel(
      String key, Speaker speaker, String text, DispatchListener listener) {
    return inChannel(key, speaker, text, listener, null);
  }

  /**
   * As {@link #inChannel(String, Speaker, String, DispatchListener)}, once per {@code requestKey}
   * (null: none): see {@link RequestKey}.
   *
   * @throws dev.legio.session.RequestKeyReusedException when the key came with another message
   */
  public ChannelTurn inChannel(
      String key, Speaker speaker, String text, DispatchListener listener, RequestKey requestKey) {
    channelKeyProblem(key)
        .ifPresent(
            problem -> {
              throw new IllegalArgumentException(problem);
            });
    Outcome outcome = engine.handleChannel(key, speaker.prefix(text), listener, requestKey);
    String source = key.substring(0, key.indexOf(':'));
    return new ChannelTurn(outcome, settings.channels().roleFor(source));
  }

  /**
   * True for the engine's answer to a request whose session stayed busy past the wait: a failure
   * with nothing logged, whose text says so. (The engine gives no flag for it; this is the one
   * place that reads its text.)
   */
  public static boolean busy(Reply reply) {
    return reply.failed()
        && reply.messageId() == null
        && reply.text().startsWith("[" + reply.agent() + "] Busy with another request");
  }

  /** A channel's turn: the engine's outcome (its one reply, or a refusal) and its role. */
  public record ChannelTurn(Outcome outcome, String role) {
    /** The channel's reply; null when the turn was refused. */
    public Reply reply() {
      List<Reply> replies = outcome.replies();
      return outcome.refusal() != null || replies.isEmpty() ? null : replies.get(0);
    }
  }
}
