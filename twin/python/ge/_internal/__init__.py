"""Internal helpers of the ge package (not public API)."""
