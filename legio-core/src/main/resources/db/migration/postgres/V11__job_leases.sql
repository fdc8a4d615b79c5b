-- Leases of singleton background jobs (dev.legio.session.SingletonJobs): the daily cleanup, memory
-- consolidation, a gateway's poller. Several Legio nodes on one database run each job on the node
-- holding its lease; a node that dies (its heartbeat stops) loses it after [sessions]
-- lease_ttl_seconds and another node takes the job over. Separate from session_leases, so that a
-- job never shows as a session being driven.
CREATE TABLE job_leases (
    job TEXT COLLATE "C" PRIMARY KEY,
    holder TEXT NOT NULL,
    lease_until TIMESTAMPTZ NOT NULL,
    holder_host TEXT,
    holder_pid BIGINT
);
