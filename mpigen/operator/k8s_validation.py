"""The Kubernetes API server's generic validation helpers, ported from Go for the pod rules (and
Kubeflow Trainer's webhooks, :mod:`mpigen.trainer.validation`).

From k8s.io/apimachinery v0.35.1: ``pkg/util/validation/validation.go`` (DNS labels and subdomains,
port names and numbers, environment variable names, config keys, HTTP header names, user and group
IDs), ``pkg/api/validate/content`` (label keys and values), ``pkg/util/validation/ip.go`` (IPs of
legacy fields), ``pkg/api/validation/generic.go`` (object names),
``pkg/apis/meta/v1/validation/validation.go`` (labels, label selectors) and
``pkg/util/validation/field/errors.go`` (the wording of an error: ``ErrorBody``). What several pod
rules share of Kubernetes' core validation is in :mod:`mpigen.lint.pod_fields`.

Each validator returns the Go function's messages (empty when valid); the ``invalid``/
``required``/... functions word a finding as ``field.Error.ErrorBody`` does, so that mpigen prints
what the API server prints after the field's path.
"""

from __future__ import annotations

import functools
import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on validate's path
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Iterator

Path = tuple[str | int, ...]
Finding = tuple[Path, str]
# What Go's strings.TrimSpace trims (unicode.IsSpace): str.strip() also takes U+001C-U+001F
GO_SPACE = ("\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
            "\u2028\u2029\u202f\u205f\u3000")


def lists(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


# ------------------------------------------------------------------ field.Error wording


def go_quote(text: str) -> str:
    """Go's ``%q`` (``strconv.Quote``) of a string."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        elif ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x80:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}


def go_value(value: Any) -> str:
    """A bad value as ``ErrorBody`` prints it: strings quoted (%q), numbers and booleans plain,
    anything else as JSON."""
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    import json

    return json.dumps(value, separators=(",", ":"), sort_keys=isinstance(value, dict))


def invalid(value: Any, detail: str) -> str:
    return f"Invalid value: {go_value(value)}: {detail}"


def required(detail: str = "") -> str:
    return f"Required value: {detail}" if detail else "Required value"


def forbidden(detail: str) -> str:
    return f"Forbidden: {detail}"


def duplicate(value: Any) -> str:
    return f"Duplicate value: {go_value(value)}"


def not_found(value: Any) -> str:
    return f"Not found: {go_value(value)}"


def not_supported(value: Any, valid: Iterable[str]) -> str:
    """``field.NotSupported``: the valid values as given (Go's ``sets.List`` sorts them first)."""
    return f"Unsupported value: {go_value(value)}: supported values: {', '.join(go_quote(v) for v in valid)}"


def too_long(max_length: int) -> str:
    return f"Too long: may not be more than {max_length} byte{'' if max_length == 1 else 's'}"


def named(value: Any, path: Path, validate: Callable[[str], Iterable[str]]) -> Iterator[Finding]:
    """The common shape of Go's checks of a string field: ``Required value`` when it is empty, else
    ``Invalid value`` for each message of ``validate``. Nothing for a value of another type (the
    schema reports it)."""
    if value == "":
        yield path, required()
    elif isinstance(value, str):
        for message in validate(value):
            yield path, invalid(value, message)


# ------------------------------------------------------------------ util/validation

# The name checks are cached (hence their tuples): manifests repeat the same names and label keys.
_cached = functools.lru_cache(maxsize=4096)


def byte_length(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def max_len_error(length: int) -> str:
    return f"must be no more than {length} characters"  # validation.MaxLenError


def regex_error(message: str, fmt: str, *examples: str) -> str:
    """``validation.RegexError`` (the same in ``content``)."""
    if not examples:
        return f"{message} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{message} (e.g. {shown}regex used for validation is '{fmt}')"


def inclusive_range_error(lo: int, hi: int) -> str:
    return f"must be between {lo} and {hi}, inclusive"


DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*"
_DNS1123_LABEL = re.compile(DNS1123_LABEL_FMT)
_DNS1123_SUBDOMAIN = re.compile(DNS1123_SUBDOMAIN_FMT)
_LABEL_ERR = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
              "start and end with an alphanumeric character")
_SUBDOMAIN_ERR = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                  "and must start and end with an alphanumeric character")


@_cached
def is_dns1123_label(value: str) -> tuple[str, ...]:
    """``validation.IsDNS1123Label``."""
    if byte_length(value) <= 63 and _DNS1123_LABEL.fullmatch(value):
        return ()
    errs = [max_len_error(63)] if byte_length(value) > 63 else []
    if not _DNS1123_LABEL.fullmatch(value):
        if _DNS1123_SUBDOMAIN.fullmatch(value):
            errs.append("must not contain dots")
        else:
            errs.append(regex_error(_LABEL_ERR, DNS1123_LABEL_FMT, "my-name", "123-abc"))
    return tuple(errs)


@_cached
def is_dns1123_subdomain(value: str, max_error: str = "characters") -> tuple[str, ...]:
    """``validation.IsDNS1123Subdomain`` (``content.IsDNS1123Subdomain`` says "bytes")."""
    errs = [f"must be no more than 253 {max_error}"] if byte_length(value) > 253 else []
    if not _DNS1123_SUBDOMAIN.fullmatch(value):
        errs.append(regex_error(_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, "example.com"))
    return tuple(errs)


_UNDERSCORE_LABEL_FMT = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
_UNDERSCORE_SUBDOMAIN_FMT = _UNDERSCORE_LABEL_FMT + "(\\." + _UNDERSCORE_LABEL_FMT + ")*"
_UNDERSCORE_SUBDOMAIN = re.compile(_UNDERSCORE_SUBDOMAIN_FMT)


def is_dns1123_subdomain_with_underscore(value: str) -> list[str]:
    """``validation.IsDNS1123SubdomainWithUnderscore``."""
    errs = [max_len_error(253)] if byte_length(value) > 253 else []
    if not _UNDERSCORE_SUBDOMAIN.fullmatch(value):
        errs.append(regex_error("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
                                "'_', '-' or '.', and must start and end with an alphanumeric character",
                                _UNDERSCORE_SUBDOMAIN_FMT, "example.com"))
    return errs


def name_is_dns_subdomain(name: str, prefix: bool = False) -> tuple[str, ...]:
    """``apimachineryvalidation.NameIsDNSSubdomain`` (ValidateSecretName, ValidateConfigMapName,
    ValidatePriorityClassName, ValidateServiceAccountName, ValidateNodeName...)."""
    if prefix and len(name) > 1 and name.endswith("-"):
        name = name[:-2] + "a"  # maskTrailingDash
    return is_dns1123_subdomain(name)


_PORT_NAME_CHARSET = re.compile("[-a-z0-9]+")
_LETTER = re.compile("[a-z]")


@_cached
def is_valid_port_name(port: str) -> tuple[str, ...]:
    """``validation.IsValidPortName``: an IANA_SVC_NAME."""
    errs = []
    if byte_length(port) > 15:
        errs.append(max_len_error(15))
    if not _PORT_NAME_CHARSET.fullmatch(port):
        errs.append("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
    if not _LETTER.search(port):
        errs.append("must contain at least one letter (a-z)")
    if "--" in port:
        errs.append("must not contain consecutive hyphens")
    if port and (port[0] == "-" or port[-1] == "-"):
        errs.append("must not begin or end with a hyphen")
    return tuple(errs)


def is_valid_port_num(port: int) -> list[str]:
    return [] if 1 <= port <= 65535 else [inclusive_range_error(1, 65535)]


def is_valid_id(value: int) -> list[str]:
    """``IsValidUserID`` and ``IsValidGroupID``."""
    return [] if 0 <= value <= 2147483647 else [inclusive_range_error(0, 2147483647)]


@_cached
def is_relaxed_env_var_name(value: str) -> tuple[str, ...]:
    """``validation.IsRelaxedEnvVarName`` (RelaxedEnvironmentVariableValidation is GA and locked on
    in 1.34, so ``ValidateEnv`` uses it rather than ``IsEnvVarName``)."""
    errs = ["environment variable name must be non-empty"] if not value else []
    if value and not (value.isascii() and value.isprintable() and "=" not in value):
        errs.append("a valid environment variable name must consist only of printable ASCII characters other than '='")
    return tuple(errs)


_CONFIG_KEY_FMT = "[-._a-zA-Z0-9]+"
_CONFIG_KEY = re.compile(_CONFIG_KEY_FMT)


def has_chdir_prefix(value: str) -> list[str]:
    if value == ".":
        return ["must not be '.'"]
    if value == "..":
        return ["must not be '..'"]
    if value.startswith(".."):
        return ["must not start with '..'"]
    return []


@_cached
def is_config_map_key(value: str) -> tuple[str, ...]:
    """``validation.IsConfigMapKey``."""
    errs = [max_len_error(253)] if byte_length(value) > 253 else []
    if not _CONFIG_KEY.fullmatch(value):
        errs.append(regex_error("a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
                                _CONFIG_KEY_FMT, "key.name", "KEY_NAME", "key-name"))
    return tuple(errs + has_chdir_prefix(value))


_HEADER_FMT = "[-A-Za-z0-9]+"
_HEADER = re.compile(_HEADER_FMT)


def is_http_header_name(value: str) -> list[str]:
    if _HEADER.fullmatch(value):
        return []
    return [regex_error("a valid HTTP header must consist of alphanumeric characters or '-'", _HEADER_FMT,
                        "X-Header-Name")]


# ------------------------------------------------------------------ labels (api/validate/content)

_LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_KEY = re.compile(_LABEL_KEY_FMT)
_LABEL_VALUE_FMT = "(" + _LABEL_KEY_FMT + ")?"
_LABEL_KEY_ERR = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                  "alphanumeric character")


@_cached
def is_qualified_name(value: str) -> tuple[str, ...]:
    """``content.IsLabelKey`` (``validation.IsQualifiedName``): a label key, an annotation key."""
    if _LABEL_KEY.fullmatch(value) and len(value) <= 63:
        return ()  # the common case: no prefix
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs += ["prefix part " + m for m in is_dns1123_subdomain(prefix, "bytes")]
    else:
        return ("a valid label key " + regex_error(_LABEL_KEY_ERR, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",)
    if not name:
        errs.append("name part must be non-empty")
    elif byte_length(name) > 63:
        errs.append("name part must be no more than 63 bytes")
    if not _LABEL_KEY.fullmatch(name):
        errs.append("name part " + regex_error(_LABEL_KEY_ERR, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc"))
    return tuple(errs)


@_cached
def is_label_value(value: str) -> tuple[str, ...]:
    """``content.IsLabelValue``."""
    if not value or (len(value) <= 63 and _LABEL_KEY.fullmatch(value)):
        return ()
    errs = ["must be no more than 63 bytes"] if byte_length(value) > 63 else []
    if not _LABEL_KEY.fullmatch(value):
        errs.append(regex_error("a valid label must be an empty string or consist of alphanumeric characters, "
                                "'-', '_' or '.', and must start and end with an alphanumeric character",
                                _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return tuple(errs)


def validate_labels(labels: Any, path: Path) -> Iterator[Finding]:
    """``ValidateLabels`` (meta/v1/validation): each key a qualified name, each value a label value.
    Go reports both at the labels' path; the findings point at the entry."""
    if not isinstance(labels, dict):
        return
    for key, value in labels.items():
        if not isinstance(key, str):
            continue
        for message in is_qualified_name(key):
            yield path + (key,), invalid(key, message)
        if isinstance(value, str):
            for message in is_label_value(value):
                yield path + (key,), invalid(value, message)


def validate_label_selector(selector: Any, path: Path) -> Iterator[Finding]:
    """``ValidateLabelSelector`` (invalid label values refused, no unknown operator)."""
    if not isinstance(selector, dict):
        return
    yield from validate_labels(selector.get("matchLabels"), path + ("matchLabels",))
    for i, expr in enumerate(lists(selector.get("matchExpressions"))):
        if isinstance(expr, dict):
            yield from selector_requirement(expr, path + ("matchExpressions", i))


def selector_requirement(expr: dict, path: Path, node: bool = False, values: bool = True) -> Iterator[Finding]:
    """``ValidateLabelSelectorRequirement``; with ``node``, ``ValidateNodeSelectorRequirement``,
    which also takes Gt and Lt with one value. ``values``: the values must be label values."""
    operator, given = expr.get("operator"), lists(expr.get("values"))
    if operator in ("In", "NotIn"):
        if not given:
            yield path + ("values",), required("must be specified when `operator` is 'In' or 'NotIn'")
    elif operator in ("Exists", "DoesNotExist"):
        if given:
            yield path + ("values",), forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
    elif node and operator in ("Gt", "Lt"):
        if len(given) != 1:
            yield path + ("values",), required("must be specified single value when `operator` is 'Lt' or 'Gt'")
    elif isinstance(operator, str):
        yield path + ("operator",), invalid(operator, "not a valid selector operator")
    key = expr.get("key")
    if isinstance(key, str):
        for message in is_qualified_name(key):
            yield path + ("key",), invalid(key, message)
    for j, value in enumerate(given) if values else ():
        if isinstance(value, str):
            for message in is_label_value(value):
                yield path + ("values", j), invalid(value, message)


# ------------------------------------------------------------------ IPs (util/validation/ip.go)


def is_valid_ip_legacy(value: str) -> list[str]:
    """``IsValidIPForLegacyField`` without strict validation (StrictIPCIDRValidation is alpha, off
    in 1.35): ``netutils.ParseIPSloppy``, which also takes IPv4 octets with leading zeros."""
    import ipaddress

    if "%" not in value:
        try:
            ipaddress.ip_address(value)
            return []
        except ValueError:
            pass
        parts = value.split(".")
        if len(parts) == 4 and all(p.isdigit() and p.isascii() and int(p) <= 255 for p in parts):
            return []
    return ["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]
