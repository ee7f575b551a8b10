-- Finding a game (issue 27, docs/matchmaking.md). queue_entries: a member waiting on a server for one game (one
-- entry per member and game; re-joining updates it but keeps joined_at, and a no-show's partners go back with
-- their first joined_at). time: a named time control or '' for any; rating: display points when they joined.
-- challenges: a direct challenge from one member to another, open until answered or expires_at (a sweep in the
-- scheduler's pass expires it, so a restart loses none); one open challenge per challenged member and server.
CREATE TABLE queue_entries (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    players    INTEGER NOT NULL,
    time       TEXT    NOT NULL DEFAULT '',
    rating     REAL    NOT NULL,
    bots_ok    INTEGER NOT NULL DEFAULT 0,
    channel_id INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    joined_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id, game)
);
CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    challenger_id INTEGER NOT NULL,
    challenged_id INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    options       TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'expired', 'cancelled')),
    message_id    INTEGER,
    game_id       INTEGER,
    created_at    TEXT    NOT NULL,
    expires_at    TEXT    NOT NULL
);
CREATE UNIQUE INDEX challenges_one_open ON challenges (guild_id, challenged_id) WHERE status = 'open';
CREATE INDEX challenges_due ON challenges (status, expires_at);
