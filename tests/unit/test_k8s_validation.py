"""The Go validation helpers the pod rules are built on, against what the Go functions return
(k8s.io/apimachinery v0.35.1 and k8s.io/kubernetes v1.35.1; the expected strings are Go's)."""

from __future__ import annotations

import pytest

from mpigen.operator.k8s_validation import (go_quote, invalid, is_dns1123_label, is_qualified_name, is_valid_ip_legacy,
                                        is_valid_port_name, name_is_dns_subdomain, not_supported, required, too_long)
from mpigen.lint.pod_fields import local_non_reserved_path, quantity


@pytest.mark.parametrize("text, quoted", [
    ("abc", '"abc"'), ('a"b', '"a\\"b"'), ("a\\b", '"a\\\\b"'), ("tab\there", '"tab\\there"'),
    ("\x01", '"\\x01"'), ("é", '"é"'), ("\u00a0", '"\\u00a0"'),
])
def test_go_quote_is_strconv_quote(text: str, quoted: str) -> None:
    assert go_quote(text) == quoted


def test_error_bodies_are_field_errors() -> None:
    assert invalid("x", "bad") == 'Invalid value: "x": bad'
    assert invalid(70000, "bad") == "Invalid value: 70000: bad"
    assert required() == "Required value" and required("why") == "Required value: why"
    assert not_supported("HTTP", ("SCTP", "TCP")) == 'Unsupported value: "HTTP": supported values: "SCTP", "TCP"'
    assert too_long(64) == "Too long: may not be more than 64 bytes"


def test_dns1123_label_messages() -> None:
    assert is_dns1123_label("worker-0") == ()
    assert is_dns1123_label("a.b") == ("must not contain dots",)
    assert is_dns1123_label("Worker") == (
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
        "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')",)  # Go's RegexError: two spaces before "or"
    assert is_dns1123_label("a" * 64)[0] == "must be no more than 63 characters"


@pytest.mark.parametrize("name, messages", [
    ("rdzv", ()),
    ("horovod-rendezvous-port", ("must be no more than 15 characters",)),
    ("8080", ("must contain at least one letter (a-z)",)),
    ("HTTP", ("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
              "must contain at least one letter (a-z)")),
    ("-a--b", ("must not contain consecutive hyphens", "must not begin or end with a hyphen")),
])
def test_port_names(name: str, messages: tuple[str, ...]) -> None:
    assert is_valid_port_name(name) == messages


def test_label_keys_use_content_wording() -> None:
    assert is_qualified_name("example.com/name") == ()
    assert is_qualified_name("/name") == ("prefix part must be non-empty",)
    assert is_qualified_name("x/" + "n" * 64) == ("name part must be no more than 63 bytes",)
    assert is_qualified_name("a/b/c")[0].startswith("a valid label key must consist of alphanumeric characters")


def test_object_names_and_paths() -> None:
    assert name_is_dns_subdomain("") and name_is_dns_subdomain("Creds")
    assert name_is_dns_subdomain("train-", prefix=True) == () and name_is_dns_subdomain("train-")
    assert local_non_reserved_path("..data") == ["must not start with '..'"]
    assert local_non_reserved_path("/etc/../x") == ["must be a relative path", "must not contain '..'"]


@pytest.mark.parametrize("ip, valid", [("10.0.0.1", True), ("010.000.000.001", True), ("2001:db8::1", True),
                                       ("fe80::1%eth0", False), ("dns.example.com", False), ("10.0.0.256", False)])
def test_legacy_ips_are_parsed_sloppily(ip: str, valid: bool) -> None:
    assert (is_valid_ip_legacy(ip) == []) is valid


@pytest.mark.parametrize("raw, text, negative, fraction", [
    ("500m", "500m", False, True), ("0.5", "500m", False, True), ("2", "2", False, False), (2, "2", False, False),
    ("100u", "1m", False, True), ("-1Gi", "-1Gi", True, False), ("1e3", "1e3", False, False),
])
def test_quantities_as_the_api_server_keeps_them(raw, text: str, negative: bool, fraction: bool) -> None:
    value = quantity(raw)
    assert value is not None and (value.text, value.negative, value.fraction) == (text, negative, fraction)


@pytest.mark.parametrize("raw", ["16GB", "1 Gi", "", True, None, [], {}, "1e2147483647", float("inf")])
def test_what_is_not_a_usable_quantity_is_none(raw) -> None:
    assert quantity(raw) is None


def test_go_space_is_what_strings_trimspace_trims() -> None:
    from mpigen.operator.k8s_validation import GO_SPACE

    assert set(GO_SPACE) == {chr(c) for c in range(0x3001) if chr(c).isspace()} - set("\x1c\x1d\x1e\x1f")
