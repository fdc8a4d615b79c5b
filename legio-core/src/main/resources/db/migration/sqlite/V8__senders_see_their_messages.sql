-- A message is visible to its sender too (an agent sees what it said, also a reply addressed to
-- caesar alone): nuntius_audience gets a row for the sender of every message, except caesar and
-- the legatus, who see everything anyway. New messages get theirs when they are appended.
INSERT OR IGNORE INTO nuntius_audience (name, seq)
    SELECT sender, seq FROM nuntii WHERE sender NOT IN ('caesar', 'legatus');
