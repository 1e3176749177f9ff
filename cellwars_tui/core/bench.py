"""Benchmarks of the shared core (record encoding)."""

from __future__ import annotations
