"""Persistence: SQLAlchemy tables, migrations, repository and unit of work."""
