"""GitOps: what Argo CD needs to know of the training jobs (:mod:`.argocd`).

The Lua health checks live as data in Argo CD's own layout, ``resource_customizations/<group>/<Kind>/``
(``health.lua``, ``health_test.yaml``, ``testdata/``), ready to offer upstream; the
ignoreDifferences rules in ``ignore_differences.yaml``. Both are package data.
"""
