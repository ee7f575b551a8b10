"""Shared UI for every cog: languages, error replies, board posts, permission checks and game surfaces."""
