"""Documents a French plant must keep, generated from the map and kept for good (docs/documents.md):
the document unique (DUERP) of a site and its action plan, every version listed and never changed."""
