-- Which node holds a session's back-end conversation, and where the live nodes answer.
-- backend_node: the node (its LEGIO_NODE_NAME, else its host name) that ran the session's last
-- turn. For a back-end whose conversations live on a node's own disk (the Claude Code CLI), that
-- node is the one that can resume it, so turns are sent there while it is alive
-- (dev.legio.app.server.SessionAffinity). NULL for rows written before this column existed.
ALTER TABLE sessions ADD COLUMN backend_node TEXT;
ALTER TABLE task_sessions ADD COLUMN backend_node TEXT;

-- The nodes of `legio serve` that are up: each announces its API's URL and renews the row while
-- it runs (every third of [sessions] lease_ttl_seconds); a row not renewed for the lease time is
-- a node that is gone.
CREATE TABLE cluster_nodes (
    url TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    seen_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX idx_cluster_nodes_node ON cluster_nodes(node);
