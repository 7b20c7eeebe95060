"""The rules pages: every variant at a glance, and one variant explained from start to end
(``views``), worked out by the rules engine from the variant's rule items (``facts``)."""
