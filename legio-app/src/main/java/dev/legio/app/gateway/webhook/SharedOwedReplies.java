package dev.legio.app.gateway.webhook;

import dev.legio.session.JobLeases;
import dev.legio.store.gateway.GatewayStateStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The replies a gateway owes, kept in Legio's database ({@code gateway_outbox}, through {@link
 * GatewayStateStore#owe}): a restart, or another node, sends what this process could not.
 *
 * <p>Rules: one node sends a gateway's replies at a time, so none is sent twice and each chat gets
 * them in order: the sender holds the singleton-job lease {@code outbox:GATEWAY} of {@link
 * JobLeases}, renewed before each send for {@code ttl} ({@code [sessions] lease_ttl_seconds}) and
 * given up after each round. A node that dies while sending loses the lease when the TTL passes. A
 * reply keeps no deadline here: these are replies that do not expire.
 */
public final class SharedOwedReplies implements OwedReplies {
  private final GatewayStateStore store;
  private final JobLeases leases;
  private final String gateway;
  private final String job;
  private final String holder = "outbox-" + UUID.randomUUID();
  private final Duration ttl;
  private final Clock clock;

  public SharedOwedReplies(
      GatewayStateStore store, JobLeases leases, String gateway, Duration ttl, Clock clock) {
    this.store = store;
    this.leases = leases;
    this.gateway = gateway;
    this.job = senderJob(gateway);
    this.ttl = ttl;
    this.clock = clock;
  }

  /** The job lease of the node that sends {@code gateway}'s owed replies. */
  public static String senderJob(String gateway) {
    return "outbox:" + gateway;
  }

  @Override
  public void add(List<OwedReply> replies) {
    store.owe(gateway, replies.stream().map(SharedOwedReplies::outbound).toList(), clock.instant());
  }

  /** {@code reply} as the database keeps it. */
  static GatewayStateStore.Outbound outbound(OwedReply reply) {
    return new GatewayStateStore.Outbound(
        0, reply.chat(), reply.thread(), reply.text(), reply.pingUser());
  }

  @Override
  public List<OwedReply> pending() {
    return store.pending(gateway).stream()
        .map(o -> new OwedReply(o.id(), o.chatId(), o.thread(), 0, o.text(), null, o.pingUser()))
        .toList();
  }

  @Override
  public void forget(long id) {
    store.sent(id);
  }

  @Override
  public boolean takeTurn() {
    return leases.tryTake(job, holder, clock.instant(), ttl);
  }

  @Override
  public void endTurn() {
    leases.release(job, holder);
  }
}
