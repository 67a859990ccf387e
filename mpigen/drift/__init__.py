"""Drift: what ``mpigen check`` compares and caches.

:mod:`.compare` rebuilds nothing itself: given the files a job's kustomize tree should hold, it
says how the tree on disk differs. :mod:`.cache` remembers which trees were in step, so that a
repository where nothing changed is checked without compiling. :mod:`.reapply` says which changes
of a drifted tree the API server would refuse on the live objects, from :mod:`.immutable`'s table.
"""
