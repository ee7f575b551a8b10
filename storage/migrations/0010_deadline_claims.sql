-- Deadlines claimed with a lease (issue 26): several bot processes sharing one database fire each due deadline
-- once. A process marks the rows it is about to fire (claimed_by: its owner name, claim_until: the lease's end);
-- another process skips them until the lease ends, so a process killed mid-pass leaves them to be claimed again.
-- NULL in both: not claimed (every row written before this migration).
ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
ALTER TABLE deadlines ADD COLUMN claim_until TEXT;
