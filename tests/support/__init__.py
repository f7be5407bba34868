"""Shared test doubles (see docs/architecture.md, section 8)."""
