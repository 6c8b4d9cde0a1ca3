"""Pure domain logic: parts, builds, checks and estimates. No Qt, no SQL."""
