"""Training (spec 2): modules (`training.modules`), the catalogue of what can be learned, and paths
(`training.paths`), which assign modules to learners."""
