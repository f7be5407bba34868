"""Tests of vecgym.vector."""
