-- PostgreSQL twin of ../0006_games_by_channel.sql.
CREATE INDEX games_by_channel ON games (channel_id, id);
