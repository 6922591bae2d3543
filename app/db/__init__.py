"""Persistence: SQLAlchemy models and the async engine/session setup."""
