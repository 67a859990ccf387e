"""`mpigen diagnose` as a user who may read only some kinds (issue 21): a ServiceAccount whose
ClusterRole lets it get and list MPIJobs, pods and the Volcano objects of a job, but not events,
nodes or the Kueue kinds, diagnoses a gang its queue holds: it still answers (held, exit 1, the
queue's verdict), and says what it could not read, naming the verb, resource and namespace.
"""

from __future__ import annotations

import json
from pathlib import Path

from cluster import local
from tests.e2e.conftest import Kube
from tests.e2e.test_admission import HOLD_SECONDS, _queue, _unbound_for, _volcano_job
from tests.e2e.test_gang import _apply_spec, _delete

ROLE = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "mpigen-e2e-limited"},
        "rules": [{"apiGroups": ["kubeflow.org"], "resources": ["mpijobs"], "verbs": ["get", "list"]},
                  {"apiGroups": [""], "resources": ["pods", "namespaces"], "verbs": ["get", "list"]},
                  {"apiGroups": ["scheduling.volcano.sh"], "resources": ["podgroups", "queues"],
                   "verbs": ["get", "list"]},
                  {"apiGroups": ["scheduling.k8s.io"], "resources": ["priorityclasses"], "verbs": ["get", "list"]}]}


def _limited_kubeconfig(kube: Kube, namespace: str, path: Path) -> Path:
    account = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "limited", "namespace": namespace}}
    binding = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
               "metadata": {"name": "mpigen-e2e-limited"},
               "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": ROLE["metadata"]["name"]},
               "subjects": [{"kind": "ServiceAccount", "name": "limited", "namespace": namespace}]}
    kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-",
                 stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": [account, ROLE, binding]}))
    token = kube.kubectl("create", "token", "limited", "-n", namespace, "--duration=10m").stdout.strip()
    state = local.load_state()
    config = {"apiVersion": "v1", "kind": "Config", "current-context": "limited",
              "clusters": [{"name": "local", "cluster": {"server": state["server"],
                                                         "certificate-authority": str(Path(state["pki"]) / "ca.crt")}}],
              "users": [{"name": "limited", "user": {"token": token}}],
              "contexts": [{"name": "limited", "context": {"cluster": "local", "user": "limited",
                                                           "namespace": namespace}}]}
    path.write_text(json.dumps(config))
    return path


def test_diagnose_says_what_a_limited_user_could_not_read(kube: Kube, tmp_path: Path) -> None:
    namespace, name = kube.namespaces["volcano"], "limited-view"
    _queue(kube, "limited", 8)
    doc = _volcano_job(kube, name, "limited", 2)
    kubeconfig = _limited_kubeconfig(kube, namespace, tmp_path / "limited.kubeconfig")
    try:
        _apply_spec(kube, doc, tmp_path)
        assert _unbound_for(kube, namespace, name, HOLD_SECONDS)
        done = kube.mpigen("diagnose", f"mpijob/{name}", "--kubeconfig", str(kubeconfig), "--format", "json")
        answer = json.loads(done.stdout)
        assert done.returncode == 1 and answer["phase"] == "Pending", (done.returncode, answer)
        assert "queue-cannot-admit" in {cause["code"] for cause in answer["causes"]}, answer
        unread = " ".join(answer["unread"])
        assert "list" in unread and "events" in unread and namespace in unread, answer["unread"]
        text = kube.mpigen("diagnose", f"mpijob/{name}", "--kubeconfig", str(kubeconfig))
        assert text.returncode == 1 and text.stdout.startswith("Pending:"), text.stdout
        assert "not read (the answer is made without it):" in text.stdout, text.stdout
    finally:
        _delete(kube, "mpijob", namespace, name)
        kube.kubectl("delete", "queue", "limited", "--wait=true", "--timeout=60s", check=False, timeout=90)
        kube.kubectl("delete", "clusterrolebinding,clusterrole", "mpigen-e2e-limited", check=False)
        kube.kubectl("delete", "serviceaccount", "limited", "-n", namespace, check=False)
