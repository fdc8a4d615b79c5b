-- Each usage row carries the id of the turn it measures, made once when the row is made, so that a
-- row written again (a retry after a write whose outcome was not known) adds nothing: rows are
-- inserted with ON CONFLICT (turn_id) DO NOTHING. Rows written before this migration keep a NULL
-- id (a unique index allows any number of NULLs) and stay as they are.
ALTER TABLE usage_ledger ADD COLUMN turn_id TEXT;
CREATE UNIQUE INDEX idx_usage_ledger_turn ON usage_ledger(turn_id);
