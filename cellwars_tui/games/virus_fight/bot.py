"""Bot hooks for Virus Fight (placeholder, replaced below)."""
