"""A container of a pod template has no valid name or image, or shares its name with another.

The API server checks a job's pod templates only against the CRD's schema; the Pod rules apply when
the operator creates the pods, so a job it accepts can have every pod refused, as an event on a job
that never starts (a Deployment is refused when it is created). This rule ports the container checks
of Kubernetes v1.35.1 (``pkg/apis/core/validation/validation.go``): ``validateContainerCommon`` (a
name that is a DNS-1123 label, ``Required value`` for an empty name or image, ``imagePullPolicy``
and ``terminationMessagePolicy`` among their values; for Pods also ``validateContainerOnlyForPod``:
no whitespace around the image), ``validateContainers`` and ``validateInitContainers`` (at least one
container; names unique across containers and init containers, ``Duplicate value``),
``validateResizePolicy``, ``validateContainerRestartPolicy`` and
``validateInitContainerRestartPolicy`` (ContainerRestartRules is on by default in 1.35), and
``ValidatePodTemplateSpec``/``ValidatePodCreate`` (no ephemeral containers). Values the API server
fills by default (``imagePullPolicy``, ``terminationMessagePolicy``) are not required. A PyTorchJob
or TFJob container named like ``PyTorch`` is left to ``container-name``. Messages are the API
server's.

Fix: give every container a distinct name of lower-case letters, digits and ``-`` (at most 63
characters, starting and ending with a letter or digit) and an image; use the values the message
lists.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ...operator.training_defaults import FRAMEWORKS
from ..base import Context, Path
from ...operator.k8s_validation import (GO_SPACE, duplicate, forbidden, invalid, is_dns1123_label, lists, not_supported,
                              required, too_long)
from ..pod_fields import PULL_POLICIES
from ..pod_template import POD_KINDS, PodTemplate, pod_templates, text

CODE = "pod-containers"
SEVERITY = Severity.ERROR
KINDS = POD_KINDS

MESSAGE_POLICIES = ("File", "FallbackToLogsOnError")
RESTART_POLICIES = ("Always", "Never", "OnFailure")


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    for template in pod_templates(ctx):
        yield from _template(template)


def _left_to_container_name(template: PodTemplate) -> str | None:
    """The framework container name when ``container-name`` reports that no container has it."""
    wanted = FRAMEWORKS[template.kind]["container"] if template.kind in FRAMEWORKS else None
    if wanted and all(c.get("name") != wanted for _, c in template.containers):
        return wanted
    return None


def _template(template: PodTemplate) -> Iterator[tuple[Path, str]]:
    base = template.spec_path
    if template.spec.get("containers") == []:
        yield base + ("containers",), required()
    framework = _left_to_container_name(template)
    names: set[str] = set()  # validateContainers' allNames: every regular container's name
    for path, container in template.containers:
        yield from _common(template, path, container, framework)
        name = container.get("name", "")
        if isinstance(name, str) and name:  # an empty name is reported as required only
            if name in names:
                yield path + ("name",), duplicate(name)
            names.add(name)
        if "restartPolicy" in container or "restartPolicyRules" in container:
            yield from _restart_policy(path, container)
    for path, container in template.init_containers:
        yield from _common(template, path, container, framework)
        name = container.get("name", "")
        if isinstance(name, str) and name:
            if name in names:  # validateInitContainers: unique across regular and init containers
                yield path + ("name",), duplicate(name)
            names.add(name)
        if "restartPolicy" in container or "restartPolicyRules" in container:
            yield from _init_restart_policy(path, container)
    if lists(template.spec.get("ephemeralContainers")):
        yield base + ("ephemeralContainers",), forbidden(
            "cannot be set on create" if template.for_pod else "ephemeral containers not allowed in pod template")


def _common(template: PodTemplate, path: Path, container: dict, framework: str | None) -> Iterator[tuple[Path, str]]:
    """``validateContainerCommon``'s name, image and policy checks (ports, env, volume mounts,
    resources and the security context are other rules), with ``validateContainerOnlyForPod``."""
    name = container.get("name", "")
    if name == "":
        yield path + ("name",), required()
    elif isinstance(name, str):
        messages = is_dns1123_label(name)
        if messages and name.lower() != framework:
            for message in messages:
                yield path + ("name",), invalid(name, message)
    image = container.get("image", "")
    if image == "":
        yield path + ("image",), required()
    elif template.for_pod and isinstance(image, str) and (image[0] in GO_SPACE or image[-1] in GO_SPACE):
        yield path + ("image",), invalid(image, "must not have leading or trailing whitespace")
    policy = container.get("terminationMessagePolicy")
    if policy and isinstance(policy, str) and policy not in MESSAGE_POLICIES:
        yield path + ("terminationMessagePolicy",), not_supported(policy, MESSAGE_POLICIES)
    pull = container.get("imagePullPolicy")
    if pull and isinstance(pull, str) and pull not in PULL_POLICIES:
        yield path + ("imagePullPolicy",), not_supported(pull, PULL_POLICIES)
    if "resizePolicy" in container:
        yield from _resize_policy(path + ("resizePolicy",), container["resizePolicy"], template.restart_policy)


def _resize_policy(path: Path, policies: object, pod_restart_policy: str) -> Iterator[tuple[Path, str]]:
    """``validateResizePolicy`` (Go reports all but the duplicate at the list's path)."""
    seen: set[str] = set()
    for i, policy in enumerate(lists(policies)):
        if not isinstance(policy, dict):
            continue
        resource, restart = text(policy, "resourceName"), text(policy, "restartPolicy")
        if resource is not None:
            if resource in seen:
                yield path + (i,), duplicate(resource)
            seen.add(resource)
            if resource == "":
                yield path + (i, "resourceName"), required()
            elif resource not in ("cpu", "memory"):
                yield path + (i, "resourceName"), not_supported(resource, ("cpu", "memory"))
        if restart is not None:
            if restart == "":
                yield path + (i, "restartPolicy"), required()
            elif restart not in ("NotRequired", "RestartContainer"):
                yield path + (i, "restartPolicy"), not_supported(restart, ("NotRequired", "RestartContainer"))
            if pod_restart_policy == "Never" and restart != "NotRequired":
                yield path + (i, "restartPolicy"), invalid(
                    restart, "must be 'NotRequired' when `restartPolicy` is 'Never'")


def _restart_policy(path: Path, container: dict) -> Iterator[tuple[Path, str]]:
    """``validateContainerRestartPolicy`` (AllowContainerRestartPolicyRules: ContainerRestartRules
    is beta and on in 1.35; RestartAllContainersOnContainerExits is alpha and off)."""
    policy, rules = container.get("restartPolicy"), lists(container.get("restartPolicyRules"))
    if policy is None:
        if rules:
            yield path + ("restartPolicy",), required("must specify restartPolicy when restart rules are used")
    elif isinstance(policy, str) and policy not in RESTART_POLICIES:
        yield path + ("restartPolicy",), not_supported(policy, RESTART_POLICIES)
    if len(rules) > 20:
        yield path + ("restartPolicyRules",), too_long(20)
    for i, rule in enumerate(rules):
        if not isinstance(rule, dict):
            continue
        here = path + ("restartPolicyRules", i)
        action = rule.get("action")
        if isinstance(action, str) and action != "Restart":
            yield here + ("action",), not_supported(action, ("Restart",))
        codes = rule.get("exitCodes")
        if codes is None:
            yield here + ("exitCodes",), required("must be specified")
        elif isinstance(codes, dict):
            operator = codes.get("operator")
            if isinstance(operator, str) and operator not in ("In", "NotIn"):
                yield here + ("exitCodes", "operator"), not_supported(operator, ("In", "NotIn"))
            if len(lists(codes.get("values"))) > 255:
                yield here + ("exitCodes", "values"), too_long(255)


def _init_restart_policy(path: Path, container: dict) -> Iterator[tuple[Path, str]]:
    """``validateInitContainerRestartPolicy``: Always makes a sidecar; its rules are refused."""
    policy, rules = container.get("restartPolicy"), lists(container.get("restartPolicyRules"))
    if policy is None:
        if rules:
            yield path + ("restartPolicy",), required("must specify restartPolicy when restart rules are used")
    elif policy == "Always":
        if rules:
            yield path + ("restartPolicyRules",), forbidden(
                "restartPolicyRules are not allowed for init containers with restart policy Always")
    else:
        yield from _restart_policy(path, container)
