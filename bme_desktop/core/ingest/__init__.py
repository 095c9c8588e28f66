"""Messages in: fingerprints, history diffs, rollback planning."""
