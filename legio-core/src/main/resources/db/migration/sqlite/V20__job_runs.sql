-- When each background job last completed a run (dev.legio.session.JobRuns): the daily cleanup's
-- catch-up reads it, so that a Legio restarted after [sessions] cleanup_at every day (a daily
-- deploy), or not running at night, still cleans up. One row per job, kept across restarts and
-- shared by every process on the database; the time only moves forward.
CREATE TABLE job_runs (
    job TEXT PRIMARY KEY,
    completed_at TEXT NOT NULL
) WITHOUT ROWID;
