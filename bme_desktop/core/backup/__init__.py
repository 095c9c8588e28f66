"""Backups: open JSON export and validated import, GraphML/GEXF, encrypted backups, retention."""
