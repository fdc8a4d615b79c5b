-- The circuit breaker of auto-compact (dev.legio.backend.http.HttpBackend): how many compactions of
-- the conversation failed in a row, and whether auto-compact is off for its session after too many.
-- Kept in the store so that a restart resumes the session with the breaker as it was; a
-- compaction carries it into the new conversation.
ALTER TABLE conversations ADD COLUMN compaction_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE conversations ADD COLUMN compaction_disabled INTEGER NOT NULL DEFAULT 0
    CHECK (compaction_disabled IN (0, 1));
