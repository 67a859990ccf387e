"""Start and stop the local cluster: `make cluster`, `make cluster-down`.

Everything listens on 127.0.0.1, on ports found free at start, so two checkouts on one machine can
each run a cluster. Everything of a run lives in ``.cache/cluster/run/`` (certificates, etcd's
data, logs, configuration, ``state.json`` with the processes); the kubeconfig is
``.cache/cluster/kubeconfig``. Stopping signals exactly the processes ``state.json`` records.
"""

from __future__ import annotations

import json
import os
import shutil
import ssl
import subprocess
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path

from . import components, pki
from .objects import (ALL_NODES, FIXTURES, KUEUE_FIXTURES, KUEUE_NAMESPACE, KUEUE_SYSTEM_NAMESPACE, NODE_CAPACITY,
                      NODES, POOL_NODES, SCHEDULER_PLUGINS_NAME, crd_objects, jobset_config, jobset_webhooks,
                      kubeconfig_file, kueue_config, kueue_crds, kueue_webhooks, kwok_config, node, pool_node,
                      scheduler_plugins_config, trainer_config, trainer_runtimes, trainer_webhooks, volcano_config,
                      volcano_queue, webhook_configuration, webhook_paths)
from .procs import ClusterError, Proc, free_ports, start, stop, wait_for

CLUSTER = components.CACHE / "cluster"
KUBECONFIG = CLUSTER / "kubeconfig"
RUN = CLUSTER / "run"
STATE = RUN / "state.json"



@dataclass(frozen=True)
class Namespace:
    """A namespace and the gang mode of the operator instances that watch it."""

    name: str
    gang: str  # volcano, scheduler-plugins, kueue, none
    why: str

    @property
    def gang_flag(self) -> str:
        """mpi-operator's --gang-scheduling and training-operator's --gang-scheduler-name: volcano,
        or the scheduler-plugins scheduler's name; empty for no gang."""
        return {"volcano": "volcano", "scheduler-plugins": SCHEDULER_PLUGINS_NAME}.get(self.gang, "")


NAMESPACES = (
    Namespace("volcano", "volcano", "Volcano gang"),
    Namespace("scheduler-plugins", "scheduler-plugins", f"scheduler-plugins Coscheduling ({SCHEDULER_PLUGINS_NAME})"),
    Namespace("default", "none", "no gang (default-scheduler)"),
    Namespace("research", "volcano",
              "Volcano gang; the namespace of specs/horovod-volcano.yaml (docs/local-cluster.md)"),
    Namespace(KUEUE_NAMESPACE, "kueue", "no gang scheduler; Kueue admits a job by its LocalQueue (label "
              "kueue.x-k8s.io/queue-name; LocalQueue user-queue of cluster/kueue.yaml)"),
)
WAIT = {"etcd": 60, "apiserver": 120, "crds": 60, "component": 90, "nodes": 60, "queue": 60, "operator": 90}


# ------------------------------------------------------------------------------------------------
# state


def load_state() -> dict | None:
    try:
        return json.loads(STATE.read_text())
    except (OSError, ValueError):
        return None


def processes(state: dict | None) -> list[Proc]:
    return [Proc.from_json(p) for p in (state or {}).get("processes", [])]


def _save(state: dict) -> None:
    tmp = STATE.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=1))
    tmp.replace(STATE)


# ------------------------------------------------------------------------------------------------
# talking to the cluster


def kubectl(*args: str, stdin: str | None = None, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, KUBECONFIG=str(KUBECONFIG))
    done = subprocess.run(["kubectl", *args], input=stdin, capture_output=True, text=True, env=env, timeout=timeout)
    if check and done.returncode != 0:
        raise ClusterError(f"kubectl {' '.join(args)}: {done.stderr.strip() or done.stdout.strip()}")
    return done


def apply(objects: list[dict], manager: str = "mpigen-cluster") -> None:
    doc = json.dumps({"apiVersion": "v1", "kind": "List", "items": objects})
    kubectl("apply", "--server-side", "--force-conflicts", f"--field-manager={manager}", "-f", "-", stdin=doc)


def _https_ok(url: str, context: ssl.SSLContext) -> bool:
    with urllib.request.urlopen(url, context=context, timeout=5) as response:  # noqa: S310 - loopback
        return response.status == 200


def _client_context(certs: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(certs / "ca.crt"))
    context.load_cert_chain(str(certs / "admin.crt"), str(certs / "admin.key"))
    return context


def _loopback_context() -> ssl.SSLContext:
    """For the health endpoints of components that serve a certificate they made themselves."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def _webhook_served(url: str, context: ssl.SSLContext) -> bool:
    """Whether the webhook server behind URL has a handler for its path (any answer but 404: an
    empty request is refused by the handler itself), its certificate checked against the CA."""
    try:
        with urllib.request.urlopen(url, context=context, timeout=5):  # noqa: S310 - loopback
            return True
    except urllib.error.HTTPError as error:
        return error.code != 404


def _http_ok(url: str) -> bool:
    with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - loopback
        return response.status == 200


# ------------------------------------------------------------------------------------------------
# up and down


def healthy(state: dict | None) -> bool:
    procs = processes(state)
    if not procs or not all(p.alive() for p in procs):
        return False
    try:
        return _https_ok(f"{state['server']}/readyz", _client_context(Path(state["pki"])))
    except Exception:  # noqa: BLE001
        return False


def up(log=print, api_only: bool = False) -> dict:
    """Start the cluster, or reuse the one this checkout runs. Returns the state.

    ``api_only``: etcd and the API server with every CRD, the namespaces and the fixtures'
    PriorityClasses and Volcano queues, and no controller, scheduler or operator (`make bench`'s
    live row: a store of objects to list, with no scheduler working over them). Such a cluster is
    reused only as such, and a full one only as a full one."""
    state = load_state()
    if healthy(state) and bool(state.get("api_only")) == api_only:
        log("reusing the running cluster")
        return state
    if state:
        down(log)
    paths = components.build(log)
    if RUN.exists():
        shutil.rmtree(RUN)
    certs, logs, config, data = RUN / "pki", RUN / "logs", RUN / "config", RUN / "etcd"
    for folder in (certs, logs, config):
        folder.mkdir(parents=True)
    log("certificates ...")
    pki.make(certs)
    ports = dict(zip(("etcd", "etcd-peer", "apiserver", "controller-manager", "scheduler", "scheduler-plugins",
                      "vc-scheduler-healthz", "vc-scheduler-metrics", "vc-controller-healthz", "vc-controller-metrics",
                      "kwok", "webhook", "jobset-webhook", "jobset-probe", "trainer-webhook", "trainer-probe",
                      "kueue-webhook", "kueue-probe"),
                     free_ports(18)))
    server = f"https://127.0.0.1:{ports['apiserver']}"
    state = {"server": server, "pki": str(certs), "ports": ports, "processes": [],
             "namespaces": [asdict(ns) for ns in NAMESPACES], "api_only": api_only}
    _save(state)
    kubeconfig_file(KUBECONFIG, server, certs)
    kubeconfig = str(KUBECONFIG)
    procs: list[Proc] = []

    def launch(name: str, argv: list[str], env: dict[str, str] | None = None) -> Proc:
        proc = start(name, argv, logs, env)
        procs.append(proc)
        state["processes"] = [p.to_json() for p in procs]
        _save(state)
        return proc

    try:
        etcd = launch("etcd", [
            str(paths["etcd"]), "--name=default", f"--data-dir={data}",
            f"--listen-client-urls=http://127.0.0.1:{ports['etcd']}",
            f"--advertise-client-urls=http://127.0.0.1:{ports['etcd']}",
            f"--listen-peer-urls=http://127.0.0.1:{ports['etcd-peer']}",
            f"--initial-advertise-peer-urls=http://127.0.0.1:{ports['etcd-peer']}",
            f"--initial-cluster=default=http://127.0.0.1:{ports['etcd-peer']}",
            "--unsafe-no-fsync", "--log-level=warn"])
        wait_for("etcd", lambda: _http_ok(f"http://127.0.0.1:{ports['etcd']}/health"), WAIT["etcd"], [etcd])
        log("kube-apiserver ...")
        apiserver = launch("kube-apiserver", [
            str(paths["kube-apiserver"]), f"--etcd-servers=http://127.0.0.1:{ports['etcd']}",
            "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", f"--secure-port={ports['apiserver']}",
            f"--tls-cert-file={certs / 'apiserver.crt'}", f"--tls-private-key-file={certs / 'apiserver.key'}",
            f"--client-ca-file={certs / 'ca.crt'}",
            f"--service-account-key-file={certs / 'sa.pub'}", f"--service-account-signing-key-file={certs / 'sa.key'}",
            "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
            "--service-cluster-ip-range=10.0.0.0/24", "--authorization-mode=Node,RBAC",
            "--endpoint-reconciler-type=none", "--allow-privileged=true", "--profiling=false"])
        context = _client_context(certs)
        wait_for("kube-apiserver", lambda: _https_ok(f"{server}/readyz", context), WAIT["apiserver"], [etcd, apiserver])

        log("custom resource definitions, namespaces ...")
        apply(crd_objects() + kueue_crds(ports["kueue-webhook"], certs))
        # kubectl wait fails at once on a CRD whose status has no conditions yet: poll it, bounded.
        wait_for("custom resource definitions Established", lambda: kubectl(
            "wait", "--for=condition=Established", "--all", "crd", "--timeout=5s", check=False).returncode == 0,
                 WAIT["crds"], [apiserver])
        apply([{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}
               for ns in (*(ns.name for ns in NAMESPACES), KUEUE_SYSTEM_NAMESPACE) if ns != "default"])
        if api_only:
            log("the fixtures' PriorityClasses and queues ...")
            kubectl("apply", "--server-side", "--field-manager=mpigen-cluster", *(f"--filename={f}" for f in FIXTURES))
            return state

        log("controllers and schedulers ...")
        kube = [f"--kubeconfig={kubeconfig}", f"--authentication-kubeconfig={kubeconfig}",
                f"--authorization-kubeconfig={kubeconfig}", "--bind-address=127.0.0.1", "--leader-elect=false"]
        kcm = launch("kube-controller-manager", [
            str(paths["kube-controller-manager"]), *kube, f"--secure-port={ports['controller-manager']}",
            f"--service-account-private-key-file={certs / 'sa.key'}", f"--root-ca-file={certs / 'ca.crt'}",
            f"--cluster-signing-cert-file={certs / 'ca.crt'}", f"--cluster-signing-key-file={certs / 'ca.key'}",
            "--use-service-account-credentials=false", "--profiling=false"])
        scheduler = launch("kube-scheduler", [
            str(paths["kube-scheduler"]), *kube, f"--secure-port={ports['scheduler']}", "--profiling=false"])
        sp_config = config / "scheduler-plugins.json"
        scheduler_plugins_config(sp_config, KUBECONFIG)
        sp = launch("scheduler-plugins-scheduler", [
            str(paths["scheduler-plugins-scheduler"]), f"--config={sp_config}",
            f"--authentication-kubeconfig={kubeconfig}", f"--authorization-kubeconfig={kubeconfig}",
            "--bind-address=127.0.0.1", f"--secure-port={ports['scheduler-plugins']}", "--profiling=false"])
        vc_config = config / "volcano-scheduler.conf"
        volcano_config(vc_config)
        vcc = launch("vc-controller-manager", [
            str(paths["vc-controller-manager"]), f"--kubeconfig={kubeconfig}", "--leader-elect=false",
            "--controllers=queue-controller,pg-controller", "--enable-healthz",
            f"--healthz-address=127.0.0.1:{ports['vc-controller-healthz']}",
            f"--listen-address=127.0.0.1:{ports['vc-controller-metrics']}"])
        vcs = launch("vc-scheduler", [
            str(paths["vc-scheduler"]), f"--kubeconfig={kubeconfig}", "--leader-elect=false",
            f"--scheduler-conf={vc_config}", "--enable-healthz",
            f"--healthz-address=127.0.0.1:{ports['vc-scheduler-healthz']}",
            f"--listen-address=127.0.0.1:{ports['vc-scheduler-metrics']}", f"--cache-dump-dir={RUN}"])
        kwok_file = config / "kwok.yaml"
        kwok_config(kwok_file)
        # kwok renews a Lease for each node, as a kubelet does: its heartbeat-with-lease stage writes
        # the node's status only every 10 to 20 minutes, and without a Lease the node lifecycle
        # controller took every node for unreachable each 50 s (node-monitor-grace-period), tainted
        # it node.kubernetes.io/unreachable until kwok made it Ready again, and a scheduler or a
        # cluster file caught in between saw no node to use.
        kwok = launch("kwok", [
            str(paths["kwok"]), f"--kubeconfig={kubeconfig}", f"--config={kwok_file}",
            "--manage-all-nodes=false", "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
            "--node-lease-duration-seconds=40",
            f"--server-address=127.0.0.1:{ports['kwok']}", "--cidr=10.0.1.0/24"])
        loopback = _loopback_context()
        for proc, port in ((kcm, "controller-manager"), (scheduler, "scheduler"), (sp, "scheduler-plugins")):
            wait_for(proc.name, lambda port=port: _https_ok(f"https://127.0.0.1:{ports[port]}/healthz", loopback),
                     WAIT["component"], [proc, apiserver])
        for proc, port in ((vcc, "vc-controller-healthz"), (vcs, "vc-scheduler-healthz")):
            wait_for(proc.name, lambda port=port: _http_ok(f"http://127.0.0.1:{ports[port]}/healthz"),
                     WAIT["component"], [proc, apiserver])
        wait_for("the default service account (kube-controller-manager)",
                 lambda: kubectl("get", "serviceaccount", "default", "-n", "default", check=False).returncode == 0,
                 WAIT["component"], [kcm])

        log("nodes, queue ...")
        apply([node(name) for name in NODES] + [pool_node(spec) for spec in POOL_NODES])
        wait_for("kwok nodes Ready", lambda: kubectl(
            "wait", "--for=condition=Ready", "node", *ALL_NODES, "--timeout=5s", check=False).returncode == 0,
                 WAIT["nodes"], [kwok])
        apply([volcano_queue("default")])
        wait_for("Volcano queue default Open", lambda: kubectl(
            "get", "queue", "default", "-o", "jsonpath={.status.state}", check=False).stdout == "Open",
                 WAIT["queue"], [vcc])

        log("operators ...")
        mpi_bin, training_bin = str(paths["mpi-operator"]), str(paths["training-operator"])
        env = dict(os.environ, KUBECONFIG=kubeconfig)
        probe_ports = free_ports(len(NAMESPACES))
        operators = []
        for ns, probe in zip(NAMESPACES, probe_ports):
            operators.append(launch(f"mpi-operator-{ns.name}", [
                mpi_bin, f"--kubeConfig={kubeconfig}", f"--namespace={ns.name}",
                f"--gang-scheduling={ns.gang_flag}", f"--lock-namespace={ns.name}"], env))
            webhook = ns is NAMESPACES[0]
            training = launch(f"training-operator-{ns.name}", [
                training_bin, f"--namespace={ns.name}", f"--gang-scheduler-name={ns.gang_flag}",
                "--enable-scheme=pytorchjob", "--enable-scheme=tfjob", "--metrics-bind-address=0",
                f"--health-probe-bind-address=127.0.0.1:{probe}",
                f"--webhook-server-port={ports['webhook'] if webhook else 0}",
                f"--webhook-cert-dir={certs / 'webhook'}"], env)
            wait_for(training.name, lambda probe=probe: _http_ok(f"http://127.0.0.1:{probe}/readyz"),
                     WAIT["operator"], [training])
        for proc in operators:
            wait_for(proc.name, lambda proc=proc: "Started workers" in Path(proc.log).read_text(errors="replace"),
                     WAIT["operator"], [proc])
        apply([webhook_configuration(ports["webhook"], certs)])

        log("JobSet and Kubeflow Trainer controllers ...")
        jobset_file, trainer_file = config / "jobset.json", config / "trainer.json"
        jobset_config(jobset_file, ports["jobset-webhook"], ports["jobset-probe"], certs / "webhook")
        jobset = launch("jobset-controller-manager", [
            str(paths["jobset-controller-manager"]), f"--kubeconfig={kubeconfig}", f"--config={jobset_file}",
            "--metrics-bind-address=0", f"--health-probe-bind-address=127.0.0.1:{ports['jobset-probe']}",
            "--leader-elect=false"], env)
        # Trainer's configuration has no certificate folder: the webhook server reads controller-runtime's
        # default, $TMPDIR/k8s-webhook-server/serving-certs, so this process gets a TMPDIR of its own.
        trainer_tmp = RUN / "trainer-tmp"
        shutil.copytree(certs / "webhook", trainer_tmp / "k8s-webhook-server" / "serving-certs")
        trainer_config(trainer_file, ports["trainer-webhook"], ports["trainer-probe"])
        trainer = launch("trainer-controller-manager", [
            str(paths["trainer-controller-manager"]), f"--kubeconfig={kubeconfig}", f"--config={trainer_file}"],
            dict(env, TMPDIR=str(trainer_tmp)))
        hooks = {jobset: jobset_webhooks(ports["jobset-webhook"], certs),
                 trainer: trainer_webhooks(ports["trainer-webhook"], certs)}
        for proc, probe in ((jobset, "jobset-probe"), (trainer, "trainer-probe")):
            wait_for(proc.name, lambda probe=probe: _http_ok(f"http://127.0.0.1:{ports[probe]}/readyz"),
                     WAIT["operator"], [proc, apiserver])
            # Ready means the webhook server listens; its handlers are registered beside the controllers.
            wait_for(f"{proc.name} webhooks", lambda proc=proc: all(_webhook_served(url, context)
                                                                   for url in webhook_paths(hooks[proc])),
                     WAIT["operator"], [proc])
        apply([hook for configs in hooks.values() for hook in configs])
        log("Kubeflow Trainer's default ClusterTrainingRuntimes ...")
        apply(trainer_runtimes())

        log("Kueue ...")
        kueue_file = config / "kueue.json"
        kueue_config(kueue_file, ports["kueue-webhook"], ports["kueue-probe"], certs / "webhook")
        kueue = launch("kueue", [str(paths["kueue"]), f"--kubeconfig={kubeconfig}", f"--config={kueue_file}"],
                       dict(env, KUEUE_METRICS_CERT_DIR=str(certs / "webhook")))
        kueue_hooks = kueue_webhooks(ports["kueue-webhook"], certs)
        wait_for(kueue.name, lambda: _http_ok(f"http://127.0.0.1:{ports['kueue-probe']}/readyz"),
                 WAIT["operator"], [kueue, apiserver])
        wait_for("kueue webhooks", lambda: all(_webhook_served(url, context) for url in webhook_paths(kueue_hooks)),
                 WAIT["operator"], [kueue])
        apply(kueue_hooks)
        # The conversion webhook serves once the manager runs: the ClusterQueue of the fixtures is
        # written through it (v1beta2 in, v1beta2 stored), and Kueue's own webhooks check it.
        kubectl("apply", "--server-side", "--field-manager=mpigen-cluster", f"--filename={KUEUE_FIXTURES}")
        log("what the example specs assume: PriorityClasses, queues ...")
        kubectl("apply", "--server-side", "--field-manager=mpigen-cluster", *(f"--filename={f}" for f in FIXTURES))
    except BaseException:
        stop(procs)
        raise
    return state


def down(log=print) -> list[str]:
    """Stop every process the running cluster's state records (and nothing else)."""
    state = load_state()
    procs = processes(state)
    stopped = stop(procs)
    if RUN.exists():
        shutil.rmtree(RUN)
    if KUBECONFIG.exists():
        KUBECONFIG.unlink()
    log(f"stopped {len(stopped)} process(es)" + (f": {', '.join(stopped)}" if stopped else ""))
    return stopped


def describe(state: dict) -> str:
    lines = [f"API server {state['server']} (Kubernetes {components.KUBERNETES_VERSION}); "
             f"nodes {', '.join(NODES)} (kwok: {', '.join(f'{v} {k}' for k, v in NODE_CAPACITY.items())} each)",
             *(f"node {n.name} ({n.zone}; {', '.join(f'{v} {k}' for k, v in n.capacity.items())}; "
               f"taints {', '.join(n.taints)})" for n in POOL_NODES),
             f"namespace -> gang mode of its mpi-operator {components.version('mpi-operator')} and "
             f"training-operator {components.version('training-operator')} instances:"]
    for ns in state["namespaces"]:
        lines.append(f"  {ns['name']:<18} {ns['gang']:<18} {ns['why']}")
    lines.append(f"Kubeflow Trainer {components.version('trainer')} and JobSet {components.version('jobset')}: "
                 "cluster-wide; a TrainJob's gang is its runtime's podGroupPolicy (Trainer's default "
                 "ClusterTrainingRuntimes installed)")
    lines.append(f"Kueue {components.version('kueue')}: the jobs of namespace {KUEUE_NAMESPACE} only (MPIJob, PyTorchJob, "
                 "TFJob, JobSet, TrainJob); ResourceFlavor default-flavor, ClusterQueue cluster-queue, LocalQueue "
                 f"{KUEUE_NAMESPACE}/user-queue")
    lines.append("logs: " + str(RUN / "logs"))
    return "\n".join(lines)
