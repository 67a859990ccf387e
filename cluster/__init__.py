"""The local cluster of `make cluster`: real Kubernetes, operators and gang schedulers, offline.

Built from pinned Go modules by ``components`` (no binary downloads), started and stopped by
``local`` on loopback, used by the end-to-end tests in ``tests/e2e`` (`make e2e`).
"""
