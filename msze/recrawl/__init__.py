"""Re-crawls against the previous run: page fingerprints, change records and the stored state (SQLite)."""
