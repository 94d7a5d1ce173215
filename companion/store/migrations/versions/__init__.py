"""One file per schema revision, oldest first; each names the one before it."""
