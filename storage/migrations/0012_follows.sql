-- Spectators (issue 27): a member following a running game they do not play in. mode: 'thread' (added to the
-- game's thread, which shows every board), 'channel' (the game's channel is theirs to read: nothing to send) or
-- 'dm' (a digest of the public boards in direct messages, at most one per game per few minutes: last_sent_at
-- and sent_moves, the number of moves the last digest showed). A game's follows end with it (rows deleted).
CREATE TABLE follows (
    game_id      INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    mode         TEXT    NOT NULL CHECK (mode IN ('thread', 'channel', 'dm')),
    created_at   TEXT    NOT NULL,
    last_sent_at TEXT,
    sent_moves   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX follows_by_user ON follows (user_id, guild_id);
