"""What the local cluster is made of: pinned Go modules, and how each binary is built.

Every component is a Go module folder under ``cluster/modules/`` with a committed go.mod and
go.sum: the upstream release is a module dependency (its ``tool`` or wrapper ``main`` package),
fetched through the Go module proxy and checked against the checksum database, never copied.
A binary lands in ``.cache/cluster/bin/<component>-<version>-<digest>/``; the digest covers the
module folder's go.mod, go.sum and Go files, the Go version and the link flags, so a second
``make cluster`` builds nothing and a changed pin builds afresh.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = ROOT / "cluster" / "modules"
CACHE = ROOT / ".cache"
GOMODCACHE = CACHE / "gomod"
BIN_CACHE = CACHE / "cluster" / "bin"

KUBERNETES_VERSION = "v1.35.1"


def _kube_version_ldflags(version: str) -> tuple[str, ...]:
    """The -X flags Kubernetes' own build (hack/lib/version.sh) sets, so that the binaries report
    their release (`kubectl version`, the User-Agent) instead of v0.0.0-master."""
    major, minor = version.lstrip("v").split(".")[:2]
    flags: list[str] = []
    for package in ("k8s.io/component-base/version", "k8s.io/client-go/pkg/version"):
        flags += [f"-X {package}.gitVersion={version}", f"-X {package}.gitMajor={major}",
                  f"-X {package}.gitMinor={minor}", f"-X {package}.gitTreeState=clean",
                  f"-X {package}.buildDate=1970-01-01T00:00:00Z"]
    return tuple(flags)


@dataclass(frozen=True)
class Component:
    """A Go module folder and the binaries built from it (name -> package path)."""

    name: str
    version: str
    binaries: dict[str, str]
    ldflags: tuple[str, ...] = field(default=())
    # A main package built from an edited copy of its files (`go build` may not overlay files of
    # the module cache): its folder in the release's module, and the edits (file, text,
    # replacement), each text found there exactly once. The copy is made at build time beside the
    # binary, with the component's go.mod and go.sum; nothing of the release is committed.
    edited_main: tuple[str, tuple[tuple[str, str, str], ...]] | None = None

    @property
    def folder(self) -> Path:
        return MODULES / self.name

    def digest(self, go_version: str) -> str:
        h = hashlib.sha256()
        for path in sorted(self.folder.iterdir()):
            if path.name in ("go.mod", "go.sum") or path.suffix == ".go":
                h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        h.update(go_version.encode() + b"\0" + " ".join(self.ldflags).encode())
        if self.edited_main:
            h.update(json.dumps(self.edited_main).encode())
        return h.hexdigest()[:12]

    def main_copy(self, folder: Path) -> Path:
        """The folder to build in: the component's own module folder, or for an edited main, a copy
        of that main package's files with the edits applied, in FOLDER/src with the go.mod and
        go.sum of the component's module folder."""
        if not self.edited_main:
            return self.folder
        package, edits = self.edited_main
        module, _, path = package.partition(f"@{self.version}/")
        source = module_dir(module, self.version) / path
        src = folder / "src"
        src.mkdir(parents=True, exist_ok=True)
        for name in ("go.mod", "go.sum"):
            shutil.copyfile(self.folder / name, src / name)
        files = {f.name: f.read_text() for f in sorted(source.glob("*.go")) if not f.name.endswith("_test.go")}
        for name, text, replacement in edits:
            if files[name].count(text) != 1:
                raise RuntimeError(f"{package}/{name}: {text!r} is not there exactly once")
            files[name] = files[name].replace(text, replacement)
        for name, text in files.items():
            (src / name).write_text(text)
        return src


COMPONENTS: tuple[Component, ...] = (
    Component("etcd", "v3.6.5", {"etcd": "go.etcd.io/etcd/server/v3"}),
    Component("kubernetes", KUBERNETES_VERSION, {
        "kube-apiserver": "k8s.io/kubernetes/cmd/kube-apiserver",
        "kube-controller-manager": "k8s.io/kubernetes/cmd/kube-controller-manager",
        "kube-scheduler": "k8s.io/kubernetes/cmd/kube-scheduler",
    }, _kube_version_ldflags(KUBERNETES_VERSION)),
    Component("kwok", "v0.8.0", {"kwok": "sigs.k8s.io/kwok/cmd/kwok"}),
    Component("mpi-operator", "v0.8.2", {"mpi-operator": "."}),
    Component("training-operator", "v1.9.4", {"training-operator": "."}),
    # Volcano v1.15.1 (the release schemas/ pins) does not build here: its go.mod points
    # volcano.sh/apis at the release's ./staging folder, which the module zip leaves out, and the Go
    # module proxy reachable here serves volcano.sh/apis at v1.14.0 only (v1.15.x: 403), without the
    # types v1.15 uses (QueueAllocationGateKey, ...). So the cluster runs v1.14.1, the newest release
    # that builds, with the PodGroup and Queue CRDs of v1.15.1 (objects.crd_files), whose schemas are
    # the same as v1.14.1's.
    Component("volcano", "v1.14.1", {
        "vc-scheduler": "volcano.sh/volcano/cmd/scheduler",
        "vc-controller-manager": "volcano.sh/volcano/cmd/controller-manager",
    }),
    Component("scheduler-plugins", "v0.33.5", {
        "scheduler-plugins-scheduler": "sigs.k8s.io/scheduler-plugins/cmd/scheduler",
    }),
    # The version JobSet's own Makefile stamps (LD_FLAGS: version_pkg.GitVersion).
    Component("jobset", "v0.12.0", {"jobset-controller-manager": "sigs.k8s.io/jobset"},
              ("-X sigs.k8s.io/jobset/pkg/version.GitVersion=v0.12.0",)),
    # Kueue's own Makefile stamps its version (LD_FLAGS: pkg/version.GitVersion). Without its internal
    # certificate management (which writes a certificate for an in-cluster Service into a Secret),
    # the release's main reads the metrics server's certificate from the fixed folder
    # /etc/kueue/metrics/certs and exits when it is not there, though the metrics server is off: the
    # one edit makes that folder $KUEUE_METRICS_CERT_DIR, which `make cluster` points at the
    # certificate it makes.
    Component("kueue", "v0.19.2", {"kueue": "."}, ("-X sigs.k8s.io/kueue/pkg/version.GitVersion=v0.19.2",),
              ("sigs.k8s.io/kueue@v0.19.2/cmd/kueue",
               (("main.go", 'metricsCertPath := "/etc/kueue/metrics/certs"',
                 'metricsCertPath := os.Getenv("KUEUE_METRICS_CERT_DIR")'),))),
    Component("trainer", "v2.3.0", {
        "trainer-controller-manager": "github.com/kubeflow/trainer/v2/cmd/trainer-controller-manager",
    }),
)


def version(name: str) -> str:
    """The pinned release of the component ``name``."""
    return next(c.version for c in COMPONENTS if c.name == name)


def go_env() -> dict[str, str]:
    """The environment of every go command here: the project's module cache, go.sum as committed."""
    env = dict(os.environ, GOMODCACHE=str(GOMODCACHE), GOFLAGS="-mod=readonly -buildvcs=false")
    env.pop("GOWORK", None)
    return env


def go_version() -> str:
    return subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True, check=True,
                          env=go_env()).stdout.strip()


def bin_dir(component: Component, go: str) -> Path:
    return BIN_CACHE / f"{component.name}-{component.version}-{component.digest(go)}"


def build(log=print) -> dict[str, Path]:
    """Build what is missing; return every binary's path. Raises CalledProcessError on failure."""
    go = go_version()
    paths: dict[str, Path] = {}
    for component in COMPONENTS:
        folder = bin_dir(component, go)
        for binary, package in component.binaries.items():
            target = folder / binary
            paths[binary] = target
            if target.exists():
                continue
            log(f"building {binary} ({component.name} {component.version}) ...")
            folder.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(target.name + ".partial")
            ldflags = " ".join(("-s", "-w", *component.ldflags))
            subprocess.run(["go", "build", "-trimpath", "-ldflags", ldflags, "-o", str(partial), package],
                           cwd=component.main_copy(folder), env=go_env(), check=True)
            partial.rename(target)
    return paths


def module_dir(module: str, version: str) -> Path:
    """The unpacked folder of MODULE@VERSION in the project's module cache (downloaded if needed)."""
    out = subprocess.run(["go", "mod", "download", "-json", f"{module}@{version}"], capture_output=True,
                         text=True, env=go_env(), cwd=ROOT)
    info = json.loads(out.stdout or "{}")
    if out.returncode != 0 or "Dir" not in info:
        raise RuntimeError(f"go mod download {module}@{version}: {info.get('Error') or out.stderr.strip()}")
    return Path(info["Dir"])
