"""A subject's mind map (docs/mind-map.md): the tree of nodes (service), the diagram, the copy kept at
standardization and its differences (standardized), the legacy application's addresses of these views
(legacy), their routes and schemas."""
