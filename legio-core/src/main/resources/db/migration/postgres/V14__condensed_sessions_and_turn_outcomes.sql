-- Condensed Claude CLI sessions (dev.legio.session.SessionCondenser): the back-end conversations a
-- session ran on before its current one, oldest first, as a JSON array of strings; NULL when the
-- session was never condensed.
ALTER TABLE sessions ADD COLUMN previous_backend_session_ids TEXT;

-- Every turn's outcome in the usage ledger (dev.legio.usage.TurnOutcome): ok, or how it failed.
-- The two labels before ('completed', 'failed') become 'ok' and 'error'.
ALTER TABLE usage_ledger DROP CONSTRAINT usage_ledger_outcome_check;
UPDATE usage_ledger SET outcome = CASE outcome WHEN 'completed' THEN 'ok' ELSE 'error' END;
ALTER TABLE usage_ledger ADD CONSTRAINT usage_ledger_outcome_check
    CHECK (outcome IN ('ok', 'error', 'timeout', 'lease_lost'));
