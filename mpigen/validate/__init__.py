"""``mpigen validate``: lint any training manifest, spec or Kubernetes object, offline, with line numbers."""
