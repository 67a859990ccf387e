"""Spec diagnostics through the whole check stage: each problem is reported once, with the most
helpful message, and a misspelt choice gets the closest allowed one (issue 14, item 6)."""

from __future__ import annotations

import pytest

from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import Options, compile_specs

SPEC = """apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata:
  name: {name}
spec:
  framework: mpi
  image: horovod/horovod:0.28.1
  command: [python, train.py]
  workers: 2
{extra}"""


def errors(name: str = "demo", extra: str = "") -> list[tuple[str, str, str]]:
    text = SPEC.format(name=name, extra=extra)
    result = compile_specs(load_text(text, "spec.yaml"), "spec.yaml", Options())
    return [(d.path, d.code, d.message) for d in result.diagnostics if d.severity.value == "error"]


def test_gpu_two_is_one_quantity_error():
    [(path, code, message)] = errors(extra="  resources: {gpu: two}\n")
    assert (path, code) == ("spec.resources.gpu", "quantity")
    assert message == ('a string "two" is not a Kubernetes quantity: it does not start with a number; write a whole '
                       "number of GPUs, e.g. 1 or 8")


def test_negative_gpu_is_one_quantity_error():
    assert [(p, c) for p, c, _ in errors(extra="  resources: {gpu: -1}\n")] == [("spec.resources.gpu", "quantity")]


def test_bad_name_is_one_hostname_error():
    [(path, code, message)] = errors(name="Bad_Name")
    assert (path, code) == ("metadata.name", "hostname")
    assert message.startswith("the job name 'Bad_Name' contains 'B', '_' and 'N': it must be lower-case letters")
    assert "rename the job" in message
    assert "shorter" not in message and "characters long" not in message  # the length is fine


@pytest.mark.parametrize("name, reason", [
    ("1abc", "starts with '1', not a letter"),
    ("abc-", "ends with '-'"),  # abc--worker-0 is a DNS-1035 label: the API server refuses the name itself
    ("-abc", "starts with '-', not a letter"),
    ("x.y", "contains '.'"),
    ("ABC", "contains 'A', 'B' and 'C'"),
    ('""', "is empty"),
    ("9Bad_", "contains 'B' and '_', starts with '9', not a letter"),
])
def test_a_name_error_says_what_is_wrong_with_the_name(name, reason):
    [(path, code, message)] = errors(name=name)
    assert (path, code) == ("metadata.name", "hostname")
    assert message.startswith(f"the job name {name.strip(chr(34))!r} {reason}: ")


def test_bad_name_is_one_error_whatever_the_environments():
    extra = "  environments:\n    dev: {workers: 1}\n    prod: {workers: 16}\n"
    assert [(p, c) for p, c, _ in errors(name="Bad_Name", extra=extra)] == [("metadata.name", "hostname")]


def test_a_long_name_is_one_error_that_says_how_long():
    extra = "  environments:\n    dev: {workers: 1}\n    prod: {workers: 16000}\n"
    [(path, code, message)] = errors(name="a" * 60, extra=extra)
    assert (path, code) == ("metadata.name", "hostname")
    assert message.startswith(f"the job name '{'a' * 60}' is 60 characters long: the pod hostname "
                              f"'{'a' * 60}-worker-0' is 69 (a DNS-1035 label has at most 63)")
    assert message.endswith("shorten the name to at most 54 characters")


def test_the_worker_count_of_an_environment_is_named_where_it_is_written():
    name = "n" * 52  # n...-worker-999 is 63 characters, n...-worker-15999 is 63 + 2
    extra = "  environments:\n    dev: {workers: 1}\n    prod: {workers: 16000}\n    qa: {image: x}\n"
    [(path, code, message)] = errors(name=name, extra=extra)
    assert (path, code) == ("spec.environments.prod.workers", "hostname")
    assert message == (f"16000 workers (environment 'prod') make the last worker's hostname '{name}-worker-15999' "
                       "65 characters long (a DNS-1035 label has at most 63); the operator rejects the job: use at "
                       "most 1000 workers or shorten the job name to at most 50 characters")


def test_a_base_worker_count_too_large_is_one_error_at_the_base():
    text = SPEC.format(name="n" * 52, extra="  environments:\n    dev: {image: x}\n    prod: {image: y}\n")
    result = compile_specs(load_text(text.replace("workers: 2", "workers: 16000"), "spec.yaml"), "spec.yaml", Options())
    [diagnostic] = [d for d in result.diagnostics if d.severity.value == "error"]
    assert (diagnostic.path, diagnostic.line, diagnostic.code) == ("spec.workers", 9, "hostname")
    assert diagnostic.message.startswith("16000 workers make the last worker's hostname")


def test_a_tfjob_ps_count_is_named_too():
    extra = "  tensorflow:\n    ps: {replicas: 2}\n  environments:\n    big:\n      tensorflow: {ps: {replicas: 1000000}}\n"
    text = SPEC.format(name="t" * 54, extra=extra).replace("framework: mpi", "framework: tensorflow")
    result = compile_specs(load_text(text, "spec.yaml"), "spec.yaml", Options())
    [diagnostic] = [d for d in result.diagnostics if d.severity.value == "error"]
    assert (diagnostic.path, diagnostic.code) == ("spec.environments.big.tensorflow.ps.replicas", "hostname")
    assert diagnostic.message.startswith("1000000 parameter servers (environment 'big') make the last parameter "
                                         f"server's hostname '{'t' * 54}-ps-999999' 64 characters long")


def test_a_field_missing_from_the_base_is_one_error_at_the_base():
    text = SPEC.format(name="demo", extra="  environments:\n    dev: {workers: 1}\n    prod: {workers: 16}\n")
    result = compile_specs(load_text(text.replace("  image: horovod/horovod:0.28.1\n", ""), "spec.yaml"),
                           "spec.yaml", Options())
    assert [(d.line, d.path, d.code, d.message) for d in result.diagnostics] == [
        (5, "spec", "missing-field", "missing required field 'image'")]


def test_an_environment_that_removes_a_required_field_is_named():
    text = SPEC.format(name="demo", extra="  environments:\n    dev: {image: null}\n    prod: {workers: 16}\n")
    result = compile_specs(load_text(text, "spec.yaml"), "spec.yaml", Options())
    assert [(d.path, d.code, d.message) for d in result.diagnostics] == [
        ("spec.environments.dev.image", "missing-field", "environment 'dev' removes the required field 'image'")]


def test_a_gpu_count_the_quantity_check_accepts_keeps_the_schema_error():
    # 1.5 is a quantity, but not a whole number of GPUs: only the schema says so, and it is kept
    assert [(p, c) for p, c, _ in errors(extra="  resources: {gpu: 1.5}\n")] == [("spec.resources.gpu", "schema")]


@pytest.mark.parametrize("extra, path, close", [
    ("  scheduling: {gang: volcan}\n", "spec.scheduling.gang", "volcano"),
    ("  mpi: {implementation: openmpi}\n", "spec.mpi.implementation", "OpenMPI"),
    ("  mpi: {launcherCreationPolicy: AtStart}\n", "spec.mpi.launcherCreationPolicy", "AtStartup"),
    ("  runPolicy: {cleanPodPolicy: running}\n", "spec.runPolicy.cleanPodPolicy", "Running"),
    ("  imagePullPolicy: IfNotPresnt\n", "spec.imagePullPolicy", "IfNotPresent"),
    ("  environments:\n    prod: {scheduling: {gang: Volcano}}\n", "spec.environments.prod.scheduling.gang", "volcano"),
])
def test_a_misspelt_choice_gets_the_close_match(extra, path, close):
    [(where, code, message)] = errors(extra=extra)
    assert (where, code) == (path, "schema")
    assert f"(did you mean {close}?); choose one of: " in message


def test_a_misspelt_framework_gets_the_close_match_and_nothing_else():
    text = SPEC.format(name="demo", extra="").replace("framework: mpi", "framework: pytorh")
    result = compile_specs(load_text(text + "  mpi: {implementation: Intel}\n", "spec.yaml"), "spec.yaml", Options())
    [diagnostic] = [d for d in result.diagnostics if d.severity.value == "error"]
    assert diagnostic.code == "schema" and "(did you mean pytorch?)" in diagnostic.message


def test_a_choice_nothing_is_close_to_gets_no_guess():
    [(_, code, message)] = errors(extra="  scheduling: {gang: slurm}\n")
    assert code == "schema" and "did you mean" not in message and "choose one of: volcano" in message


# --- messages that say the right thing ------------------------------------------------------------

def test_a_secret_key_ref_without_key_says_the_key_is_missing():
    extra = "  env:\n    DB_PASSWORD: {secretKeyRef: {name: db}}\n    TOKEN: {secretKeyRef: {key: token}}\n"
    assert errors(extra=extra) == [
        ("spec.env.DB_PASSWORD.secretKeyRef", "missing-field", "missing required field 'key'"),
        ("spec.env.TOKEN.secretKeyRef", "missing-field", "missing required field 'name'")]


def test_a_value_of_no_branch_s_shape_still_lists_the_shapes():
    [(path, code, message)] = errors(extra="  env:\n    X: [1, 2]\n")
    assert (path, code) == ("spec.env.X", "schema")
    assert message.startswith("expected a string or an integer or a mapping, got a list")


@pytest.mark.parametrize("value, message", [
    ("sixteen", 'expected an integer, got a string "sixteen", which is not a number: write it in digits'),
    ('"16"', 'expected an integer, got a string "16"; write the number without quotes'),
])
def test_a_count_in_words_is_not_a_number(value, message):
    text = SPEC.format(name="demo", extra="").replace("workers: 2", f"workers: {value}")
    result = compile_specs(load_text(text, "spec.yaml"), "spec.yaml", Options())
    assert [(d.path, d.message) for d in result.diagnostics] == [("spec.workers", message)]


def test_horovod_is_a_framework_of_mpi():
    text = SPEC.format(name="demo", extra="").replace("framework: mpi", "framework: horovod")
    result = compile_specs(load_text(text, "spec.yaml"), "spec.yaml", Options())
    [diagnostic] = result.diagnostics
    assert diagnostic.path == "spec.framework"
    assert diagnostic.message.startswith('a string "horovod" is not allowed: Horovod runs under framework: mpi ')
    assert diagnostic.message.endswith("; choose one of: mpi, pytorch, tensorflow")


@pytest.mark.parametrize("value, reason", [
    ("16GB", "'GB' is not one of its suffixes; write 16G (powers of 1000) or 16Gi (powers of 1024)"),
    ("2kb", "'kb' is not one of its suffixes; write 2k (powers of 1000) or 2Ki (powers of 1024)"),
    ("4x", "'x' is not one of its suffixes (n, u, m, k, M, G, T, P, E: powers of 1000; Ki, Mi, Gi, Ti, Pi, Ei: "
           "powers of 1024); write e.g. 500m, 4, 1.5, 16Gi"),
    ("1 Gi", "it has spaces; write e.g. 500m, 4, 1.5, 16Gi"),
    ("1.2.3", "it is not a number; write e.g. 500m, 4, 1.5, 16Gi"),
    ("1e", "its exponent has no digits; write e.g. 500m, 4, 1.5, 16Gi"),
    ("x1", "it does not start with a number; write e.g. 500m, 4, 1.5, 16Gi"),
])
def test_one_quantity_message_for_specs_and_manifests(value, reason):
    """The spec's quantity check and a manifest's schema check say the same of the same value."""
    from mpigen.emit.yaml_emit import dump_all
    from mpigen.validation import ValidateOptions, validate_bytes

    extra = f'  resources: {{memory: "{value}"}}\n'
    [(path, code, message)] = errors(extra=extra)
    assert (path, code) == ("spec.resources.memory", "quantity")
    assert message == f'a string "{value}" is not a Kubernetes quantity: {reason}'
    built = compile_specs(load_text(SPEC.format(name="demo", extra="  resources: {memory: 1Gi}\n"), "s.yaml"),
                          "s.yaml", Options())
    objects = built.jobs[0].base
    objects[0]["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]["resources"]["limits"][
        "memory"] = value
    found, _ = validate_bytes(dump_all(objects).encode(), "m.yaml", ValidateOptions())
    assert [(d.code, d.message) for d in found if d.severity.value == "error"] == [("quantity", message)]
