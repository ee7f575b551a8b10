-- A player's own settings across servers (quiet hours, direct-message reminders), and their vacations: a
-- vacation pauses the player's clocks in every game on a server, within a yearly allowance per server.
CREATE TABLE user_settings (
    user_id INTEGER PRIMARY KEY,
    data TEXT NOT NULL
);
CREATE TABLE vacations (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    starts_at TEXT NOT NULL,
    ends_at TEXT NOT NULL
);
CREATE INDEX vacations_by_user ON vacations (user_id, guild_id, starts_at);
