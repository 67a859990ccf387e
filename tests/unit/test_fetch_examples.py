"""scripts/fetch_examples.py offline: which files and documentation blocks the upstream corpus takes,
and how the pins name a module's version."""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "fetch_examples.py"
KINDS = {"kubeflow.org": ["MPIJob", "PyTorchJob"], "scheduling.volcano.sh": ["Queue"]}


@functools.cache
def script():
    spec = importlib.util.spec_from_file_location("fetch_examples", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path, pattern, hit", [
    ("examples/v2beta1/pi/pi.yaml", "examples/**/*.yaml", True),
    ("examples/pi.yaml", "examples/**/*.yaml", True),
    ("examples-old/pi.yaml", "examples/**/*.yaml", False),
    ("examples/pi.yml", "examples/**/*.yaml", False),
    ("README.md", "README.md", True),
    ("docs/README.md", "README.md", False),
    ("docs/proposals/x/y.md", "docs/proposals/**", True),
    ("cmd/kueueviz/examples/a.yaml", "cmd/kueueviz/examples/*.yaml", True),
    ("cmd/kueueviz/examples/x/a.yaml", "cmd/kueueviz/examples/*.yaml", False),
])
def test_globs(path: str, pattern: str, hit: bool) -> None:
    assert script().matches(path, (pattern,)) is hit


PAGE = """\
# Title

```bash
kubectl apply -f -
```

```yaml
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
```

1. In a list:

   ```yaml
   apiVersion: scheduling.volcano.sh/v1beta1
   kind: Queue
   spec:
     weight: 1
   ```

~~~
kind: Pod
~~~

````yml
a: |
  ```
  not the end
  ```
````
"""


def test_yaml_blocks_are_numbered_and_dedented() -> None:
    blocks = list(script().yaml_blocks(PAGE))
    assert [line for line, _ in blocks] == [8, 15, 22, 26]
    assert blocks[0][1] == "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\n"
    assert blocks[1][1] == "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nspec:\n  weight: 1\n"
    assert blocks[2][1] == "kind: Pod\n"
    assert blocks[3][1] == "a: |\n  ```\n  not the end\n  ```\n"


@pytest.mark.parametrize("text, kept", [
    ("apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\n", ["kubeflow.org/v2beta1 MPIJob"]),
    ("apiVersion: v1\nkind: ConfigMap\n---\napiVersion: kubeflow.org/v1\nkind: PyTorchJob\n",
     ["v1 ConfigMap", "kubeflow.org/v1 PyTorchJob"]),  # what the job's file holds comes along
    ("apiVersion: v1\nkind: ConfigMap\n", []),
    ("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\n", []),
    ("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n", ["scheduling.volcano.sh/v1beta1 Queue"]),
    ("apiVersion: other.io/v1\nkind: Queue\n", []),  # a kind is kept in its own group only
    ("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: kubeflow.org/v1, kind: PyTorchJob}\n",
     ["kubeflow.org/v1 PyTorchJob"]),
    # YAML that does not parse (an excerpt with a placeholder) is scanned line by line
    ("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  x: [\n", ["kubeflow.org/v1 PyTorchJob"]),
])
def test_kept_by_kind(text: str, kept: list[str]) -> None:
    assert [f"{a} {k}" for a, k in script().kept(text, KINDS)] == kept


def test_a_pin_names_the_version_of_a_source() -> None:
    pins = {"sources": [{"name": "mpi", "module": "github.com/kubeflow/mpi-operator", "version": "v0.8.2"}],
            "examples": {"modules": [{"name": "mpi-operator", "pin": "mpi", "files": ["examples/**/*.yaml"]},
                                     {"name": "kueue", "module": "sigs.k8s.io/kueue", "version": "v0.19.2"}]}}
    found = script().modules(pins)
    assert [(m.name, m.module, m.version, m.folder) for m in found] == [
        ("mpi-operator", "github.com/kubeflow/mpi-operator", "v0.8.2", "mpi-operator@v0.8.2"),
        ("kueue", "sigs.k8s.io/kueue", "v0.19.2", "kueue@v0.19.2")]
    pins["examples"]["modules"][0]["pin"] = "nope"
    with pytest.raises(script().SchemaError, match="no source named 'nope'"):
        script().modules(pins)


def test_pieces_of_a_module(tmp_path: Path) -> None:
    (tmp_path / "examples" / "a").mkdir(parents=True)
    (tmp_path / "examples" / "a" / "job.yaml").write_text("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\n")
    (tmp_path / "examples" / "a" / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\n")
    (tmp_path / "examples" / "a" / "README.md").write_text(PAGE)
    (tmp_path / "examples" / "old").mkdir()
    (tmp_path / "examples" / "old" / "job.yaml").write_text("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\n")
    module = script().Module("m", "example.com/m", "v1.0.0", ("examples/**/*.yaml",), ("examples/**/*.md",),
                             ("examples/old/**",))
    got = {piece.relpath: (piece.block, piece.line) for piece, _ in script().pieces(module, tmp_path, KINDS)}
    assert got == {"examples/a/job.yaml": (None, None), "examples/a/README.md.block1.yaml": (1, 8),
                   "examples/a/README.md.block2.yaml": (2, 15)}


def test_a_rewrite_removes_what_the_old_lock_listed_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "old@v1" / "examples").mkdir(parents=True)
    (tmp_path / "old@v1" / "examples" / "job.yaml").write_text("kind: PyTorchJob\n")
    (tmp_path / "mine.txt").write_text("not the script's\n")
    (tmp_path / "lock.json").write_text('{"files": {"old@v1/examples/job.yaml": {}, "../outside.yaml": {}}}')
    (tmp_path.parent / "outside.yaml").write_text("kept\n")
    script().write({"new@v2/job.yaml": b"kind: PyTorchJob\n", "lock.json": b"{}\n"}, tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        "lock.json", "mine.txt", "new@v2", "new@v2/job.yaml"]
    assert (tmp_path.parent / "outside.yaml").read_text() == "kept\n"
