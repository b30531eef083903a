"""Rules packages. Each one uses only the public kernel API (a test enforces it)."""
