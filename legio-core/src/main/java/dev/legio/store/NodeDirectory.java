package dev.legio.store;

import dev.legio.log.Timestamps;
import dev.legio.log.jdbc.SharedWriter;
import dev.legio.log.jdbc.SqlValues;
import dev.legio.session.SessionStoreException;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The nodes of {@code legio serve} sharing one database, and where their APIs answer (table {@code
 * cluster_nodes}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A node {@linkplain #announce announces} its API's URL with its node name when it starts
 *       serving and again every third of the lease time while it serves; it {@linkplain #leave
 *       leaves} when it stops.
 *   <li>A node is live when it announced within the lease time ({@code [sessions]
 *       lease_ttl_seconds}): a killed node drops out of {@link #liveNodes} within that time, as its
 *       leases do.
 *   <li>One row per URL: a node restarted on the same URL replaces its row.
 * </ul>
 */
public final class NodeDirectory {
  private static final String ANNOUNCE =
      "INSERT INTO cluster_nodes (url, node, seen_at) VALUES (?, ?, ?)"
          + " ON CONFLICT (url) DO UPDATE SET node = excluded.node, seen_at = excluded.seen_at";

  /** A node and the URL its API answers at. */
  public record Node(String name, URI url) {
    public Node {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(url, "url");
    }
  }

  private final DataSource pool;
  private final SqlValues values;
  private final SharedWriter writer;

  /**
   * @param writer where writes run (the message log's writer)
   */
  public NodeDirectory(DataSource pool, SqlValues values, SharedWriter writer) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.values = Objects.requireNonNull(values, "values");
    this.writer = Objects.requireNonNull(writer, "writer");
  }

  /** Records that node {@code name} serves at {@code url}, as of {@code now}. */
  public void announce(String name, URI url, Instant now) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(url, "url");
    update(
        "announcing node '" + name + "' at " + url,
        new SharedWriter.Update(
            ANNOUNCE,
            s -> {
              s.setString(1, url.toString());
              s.setString(2, name);
              values.bindTimestamp(s, 3, Timestamps.truncate(now));
            }));
  }

  /** Removes the node serving at {@code url} (it is stopping). */
  public void leave(URI url) {
    update(
        "removing the node at " + url,
        new SharedWriter.Update(
            "DELETE FROM cluster_nodes WHERE url = ?", s -> s.setString(1, url.toString())));
  }

  /** The nodes that announced within {@code ttl} before {@code now}, the latest first. */
  public List<Node> liveNodes(Instant now, Duration ttl) {
    List<Node> live = new ArrayList<>();
    try (Connection connection = pool.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT node, url FROM cluster_nodes WHERE seen_at >= ? ORDER BY seen_at DESC")) {
      values.bindTimestamp(statement, 1, Timestamps.truncate(now.minus(ttl)));
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          live.add(new Node(rows.getString(1), URI.create(rows.getString(2))));
        }
      }
    } catch (SQLException e) {
      throw new SessionStoreException("reading the live nodes failed: " + e.getMessage(), e);
    }
    return live;
  }

  private void update(String action, SharedWriter.Update update) {
    try {
      writer.executeUpdates(List.of(update));
    } catch (RuntimeException e) {
      throw new SessionStoreException(action + " failed: " + e.getMessage(), e);
    }
  }
}
