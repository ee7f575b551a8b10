"""The Discord surface: thin cogs that turn Discord events into engine calls and post what happened."""
