-- Which process holds a session lease (dev.legio.session.LeaseHolder): its host and pid, so that
-- a lease whose holder died on this host is freed at once instead of when it runs out. Null for
-- leases taken before this migration (they run out as before).
ALTER TABLE session_leases ADD COLUMN holder_host TEXT;
ALTER TABLE session_leases ADD COLUMN holder_pid INTEGER;
