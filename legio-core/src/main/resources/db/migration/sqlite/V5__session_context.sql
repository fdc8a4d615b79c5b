-- How full each session's context was after its last turn that reported it
-- (dev.legio.backend.ContextUse): tokens against the model's window, consecutive failed
-- compactions, and whether auto-compact is off for the session. All four are NULL together until a
-- turn reports them (existing rows keep NULL: no figure yet).
ALTER TABLE sessions ADD COLUMN context_tokens INTEGER;
ALTER TABLE sessions ADD COLUMN context_window INTEGER;
ALTER TABLE sessions ADD COLUMN compaction_failures INTEGER;
ALTER TABLE sessions ADD COLUMN compaction_disabled INTEGER CHECK (compaction_disabled IN (0, 1));
