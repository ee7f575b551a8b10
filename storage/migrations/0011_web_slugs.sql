-- The read-only web site (issue 28, web/): a random, unguessable slug per published object, so that a page's
-- address cannot be listed or guessed from an id. kind: 'guild' (the server's leaderboard), 'tournament', 'game',
-- 'player' (a player within one server: object_id is the user id, guild_id the server). Slugs are made by the bot
-- and the CLI (never by the web process, which opens the database read-only) for servers that opted in: the
-- opt-in itself is the guild setting 'web' (guild_settings), so a server that turns it off is served nothing
-- although its slugs stay (turning it on again brings the same addresses back).
CREATE TABLE web_slugs (
    slug        TEXT    PRIMARY KEY,
    kind        TEXT    NOT NULL CHECK (kind IN ('guild', 'tournament', 'game', 'player')),
    guild_id    INTEGER NOT NULL,
    object_id   INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (kind, guild_id, object_id)
);
