"""Certificates and keys of the local cluster, made with the openssl command (Debian's openssl).

One CA signs everything: the API server's serving certificate (127.0.0.1, localhost and the
in-cluster names), one client certificate for every component and for the user (group
system:masters: a test cluster on loopback, nothing to protect), and the serving certificate for
127.0.0.1 of every webhook server (training-operator's, Kubeflow Trainer's, JobSet's). The service-account token key pair is separate.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

DAYS = "3650"


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def _leaf(pki: Path, name: str, subject: str, extensions: str) -> None:
    (pki / f"{name}.ext").write_text(extensions)
    _openssl("req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
             "-subj", subject, cwd=pki)
    _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
             "-days", DAYS, "-sha256", "-extfile", f"{name}.ext", "-out", f"{name}.crt", cwd=pki)


def make(pki: Path) -> None:
    """Write ca.{crt,key}, apiserver.{crt,key}, admin.{crt,key}, webhook.{crt,key} (and webhook/tls.{crt,key}), sa.{key,pub}."""
    pki.mkdir(parents=True, exist_ok=True)
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
             "-days", DAYS, "-subj", "/CN=mpigen-local-cluster-ca", cwd=pki)
    server = ("basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n"
              "extendedKeyUsage=serverAuth\nsubjectAltName=")
    _leaf(pki, "apiserver", "/CN=kube-apiserver",
          server + "IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,"
                   "DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local\n")
    _leaf(pki, "webhook", "/CN=training-operator-webhook", server + "IP:127.0.0.1,DNS:localhost\n")
    _leaf(pki, "admin", "/O=system:masters/CN=mpigen-admin",
          "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n")
    (pki / "webhook").mkdir()
    for suffix in ("crt", "key"):  # controller-runtime's webhook server reads tls.crt and tls.key
        shutil.copyfile(pki / f"webhook.{suffix}", pki / "webhook" / f"tls.{suffix}")
    _openssl("genrsa", "-out", "sa.key", "2048", cwd=pki)
    _openssl("rsa", "-in", "sa.key", "-pubout", "-out", "sa.pub", cwd=pki)
