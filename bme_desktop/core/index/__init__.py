"""Vector indexes over memories: a numpy matrix per chat, persisted in the ``vectors`` table."""
