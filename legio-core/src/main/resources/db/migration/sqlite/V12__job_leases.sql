-- Leases of singleton background jobs (dev.legio.session.SingletonJobs): the daily cleanup, memory
-- consolidation, a gateway's poller. Several Legio processes on one database run each job in the
-- process holding its lease; a process that dies (its heartbeat stops) loses it after [sessions]
-- lease_ttl_seconds and another takes the job over. Separate from session_leases, so that a job
-- never shows as a session being driven.
CREATE TABLE job_leases (
    job TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    lease_until TEXT NOT NULL,
    holder_host TEXT,
    holder_pid INTEGER
) WITHOUT ROWID;
