-- The games of a channel, newest first, without a scan: `/record` in the thread of a game that has ended finds
-- that game (the partial unique index only covers open games).
CREATE INDEX games_by_channel ON games (channel_id, id);
