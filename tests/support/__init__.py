"""Shared test doubles (see DESIGN.md, section 6)."""
