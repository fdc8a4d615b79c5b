-- When each background job last completed a run (dev.legio.session.JobRuns): the daily cleanup's
-- catch-up reads it, so that nodes restarted after [sessions] cleanup_at every day (a daily deploy),
-- or not running at night, still clean up. One row per job, kept across restarts and shared by
-- every node; the time only moves forward.
CREATE TABLE job_runs (
    job TEXT COLLATE "C" PRIMARY KEY,
    completed_at TIMESTAMPTZ NOT NULL
);
