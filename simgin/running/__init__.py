"""Running many hands: run settings and chunks, backends, the resumable directory, tallies and summaries."""
