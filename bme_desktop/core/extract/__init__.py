"""Write path: cleaning, extraction and applying operations to the graph."""
