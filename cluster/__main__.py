"""python -m cluster build|up|down|status (the Makefile's cluster, cluster-down and cluster-build)."""

from __future__ import annotations

import argparse
import subprocess
import sys

from . import components, local
from .procs import ClusterError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cluster", description=__doc__)
    parser.add_argument("command", choices=("build", "up", "down", "status"))
    args = parser.parse_args(argv)
    log = lambda message: print(f"cluster: {message}", file=sys.stderr, flush=True)  # noqa: E731
    try:
        if args.command == "build":
            for binary, path in components.build(log).items():
                print(f"{binary}: {path}")
        elif args.command == "up":
            state = local.up(log)
            print(local.describe(state))
            print(f"export KUBECONFIG={local.KUBECONFIG}")
        elif args.command == "down":
            local.down(log)
        else:
            state = local.load_state()
            if not local.healthy(state):
                print("no cluster is running in this checkout")
                return 1
            print(local.describe(state))
            print(f"export KUBECONFIG={local.KUBECONFIG}")
    except (ClusterError, subprocess.CalledProcessError, RuntimeError, subprocess.TimeoutExpired) as exc:
        log(f"{args.command} failed: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
