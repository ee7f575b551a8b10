-- PostgreSQL twin of ../0010_deadline_claims.sql: deadlines claimed with a lease (see there). The claim itself is
-- taken with FOR UPDATE SKIP LOCKED, so two processes claiming at once never wait for, nor take, the same rows.
ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
ALTER TABLE deadlines ADD COLUMN claim_until TIMESTAMPTZ;
