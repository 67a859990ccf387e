"""tests/random_specs.py: deterministic, schema-valid, compiles in every environment, covers the format."""

from __future__ import annotations

import collections
import random
import re

import jsonschema
import pytest
import yaml

from mpigen.spec.schema import SPEC_SCHEMA, load_schema
from mpigen.expand.environments import environment_names, spec_for
from tests.random_specs import NAMESPACES, random_spec, random_specs, spec_yaml

SEEDS = range(300)
# Warnings a valid spec may get: a hostPath volume, a gang decision mpigen cannot pin down without
# the cluster's PriorityClasses, and scheduler-plugins' default timeout. Anything else is a spec
# the generator should not produce.
EXPECTED_WARNINGS = {"host-path", "min-resources-order", "priority-order", "schedule-timeout-zero"}


def mpigen(args: list[str], stdin: str) -> tuple[int, str, str]:
    """The mpigen CLI in-process: exit code, stdout, stderr (the one place that imports the CLI)."""
    from click.testing import CliRunner

    from mpigen.main import cli

    result = CliRunner().invoke(cli, args, input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # an internal error: show its traceback
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def docs() -> list[dict]:
    return [random_spec(random.Random(seed)) for seed in SEEDS]


def test_deterministic_for_a_seed() -> None:
    first = random_specs(7, 40)
    assert first == random_specs(7, 40)
    assert [spec_yaml(d) for _, d in first] == [spec_yaml(d) for _, d in random_specs(7, 40)]
    assert first != random_specs(8, 40)
    assert random_spec(random.Random(3)) == random_spec(random.Random(3))


def test_random_specs_have_distinct_names() -> None:
    pairs = random_specs(1, 300)
    assert len(pairs) == 300
    assert len({name for name, _ in pairs}) == 300
    assert all(name == doc["metadata"]["name"] for name, doc in pairs)


def test_specs_satisfy_the_json_schema(docs: list[dict]) -> None:
    schema = load_schema(SPEC_SCHEMA)
    validator = jsonschema.validators.validator_for(schema)(schema)  # python-jsonschema: an independent judge
    for seed, doc in zip(SEEDS, docs):
        data = yaml.safe_load(spec_yaml(doc))  # what a reader of the YAML gets
        assert data == doc
        # In an environment, null removes a field (a JSON merge patch): not a type error.
        errors = [e for e in validator.iter_errors(data)
                  if not (e.instance is None and list(e.absolute_path)[:2] == ["spec", "environments"])]
        assert not errors, f"seed {seed}: {errors[0].message} at {list(errors[0].absolute_path)}"
        for env in environment_names(data["spec"]):
            effective = dict(data, spec=spec_for(data["spec"], env))
            errors = list(validator.iter_errors(effective))
            assert not errors, f"seed {seed} --env {env}: {errors[0].message} at {list(errors[0].absolute_path)}"


def test_specs_compile_in_every_environment(docs: list[dict]) -> None:
    for seed, doc in zip(SEEDS, docs):
        text = spec_yaml(doc)
        for env in [None, *doc["spec"].get("environments", {})]:
            code, out, err = mpigen(["build", "-", *(["--env", env] if env else [])], text)
            assert code == 0, f"seed {seed}, --env {env}:\n{err}\n{text}"
            assert out.startswith("---\napiVersion: kubeflow.org/")
            warnings = set(re.findall(r": warning ([a-z0-9-]+) ", err))
            assert warnings <= EXPECTED_WARNINGS, f"seed {seed}, --env {env}:\n{err}\n{text}"


def test_names_fit_the_api_server(docs: list[dict]) -> None:
    dns1035 = re.compile(r"^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$")
    for doc in docs:
        spec = doc["spec"]
        name = doc["metadata"]["name"]
        for env in [None, *spec.get("environments", {})]:
            workers = spec_for(spec, env)["workers"]
            assert dns1035.match(f"{name}-worker-{max(workers, 1) - 1}"), name
        if "tensorboard" in spec:
            assert dns1035.match(f"{name}-tensorboard"), name
        assert doc["metadata"].get("namespace", "default") in NAMESPACES


def _nulls(value: object) -> bool:
    return value is None or isinstance(value, dict) and any(_nulls(v) for v in value.values())


def _features(doc: dict) -> set[str]:
    """What one spec uses, in the base or in an environment."""
    out = {"namespace" if "namespace" in doc["metadata"] else "no namespace"}
    out |= {"null in an environment"} if _nulls(doc["spec"].get("environments", {})) else set()
    for spec in [doc["spec"], *[spec_for(doc["spec"], env) for env in environment_names(doc["spec"])]]:
        mpi, scheduling = spec.get("mpi", {}), spec.get("scheduling", {})
        out |= {f"framework {spec['framework']}", f"gang {scheduling.get('gang', 'none')}"}
        out |= {f"implementation {mpi['implementation']}"} if "implementation" in mpi else set()
        out |= {f"mpi.{key}" for key in mpi} | {f"scheduling.{key}" for key in scheduling}
        out |= {f"{framework}.{key}" for framework in ("pytorch", "tensorflow") for key in spec.get(framework, {})}
        out |= set(spec) | {f"code.{key}" for key in spec.get("code", {})}
        out |= {f"volume {'claimName' if 'claimName' in v else 'hostPath'}" for v in spec.get("volumes", [])}
        out |= {"secretKeyRef" for value in spec.get("env", {}).values() if isinstance(value, dict)}
        out |= {"workers 0"} if spec["workers"] == 0 else {"workers >= 1000"} if spec["workers"] >= 1000 else set()
    return out


def test_coverage_over_300_seeds(docs: list[dict]) -> None:
    seen = collections.Counter(feature for doc in docs for feature in _features(doc))
    wanted = {"framework mpi", "framework pytorch", "framework tensorflow", "gang none", "gang volcano",
              "gang scheduler-plugins", "gang kube-batch", "gang kueue", "implementation OpenMPI",
              "implementation Intel", "implementation MPICH", "environments", "null in an environment",
              "mpi.runLauncherAsWorker", "mpi.launcherCreationPolicy", "mpi.extraArgs", "mpi.sshAuthMountPath",
              "mpi.launcher", "mpi.mpirun", "scheduling.queue", "scheduling.priorityClass", "scheduling.minAvailable",
              "scheduling.minResources", "scheduling.scheduleTimeoutSeconds", "scheduling.schedulerName",
              "scheduling.gpuTopology", "pytorch.master", "pytorch.port", "tensorflow.ps", "tensorflow.chief",
              "tensorflow.evaluator", "tensorflow.port", "resources", "env", "secretKeyRef", "volume claimName",
              "volume hostPath", "tensorboard", "code.git", "code.rsync", "code.mountPath", "shmSize",
              "nodeSelector", "tolerations", "imagePullSecrets", "imagePullPolicy", "serviceAccountName",
              "runPolicy", "labels", "annotations", "priorityClassName", "slotsPerWorker", "restartPolicy",
              "workingDir", "workers 0", "workers >= 1000", "namespace", "no namespace"}
    assert wanted <= set(seen), sorted(wanted - set(seen))
    assert seen["environments"] >= 60 and seen["framework mpi"] >= 100  # weighted as the docstring says
