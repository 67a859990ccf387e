"""mpigen.config: .mpigen.yaml or [tool.mpigen], found upwards (stopping at the repository root),
with clear errors for what cannot be used, and the per-object disable annotation."""

from __future__ import annotations

from pathlib import Path

import pytest

from mpigen.config import CONFIG_FILE, Config, ConfigError, disabled_by_annotation, find_config, load_config

FULL_YAML = """\
disable: [clean-pod-policy-none, launcher-gpu]
specs: ["specs/*.yaml", "more/**/*.yaml"]
output: deploy/training
gang: volcano
schedulerName: my-scheduler
operatorVersion: v0.5.0
cluster: cluster/priorityclasses.yaml
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository root (its .git stops the upward search), so nothing above tmp_path leaks in."""
    (tmp_path / ".git").mkdir()
    return tmp_path


def test_every_key_of_mpigen_yaml(repo: Path) -> None:
    path = repo / CONFIG_FILE
    path.write_text(FULL_YAML)
    config = load_config(start=repo)
    assert config == Config(path=path, disable=frozenset({"clean-pod-policy-none", "launcher-gpu"}),
                            specs=("specs/*.yaml", "more/**/*.yaml"), output="deploy/training", gang="volcano",
                            scheduler_name="my-scheduler", operator_version="v0.5.0",
                            cluster="cluster/priorityclasses.yaml")
    assert config.root == repo


def test_tool_mpigen_in_pyproject(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.mpigen]\nspecs = ["specs/*.yaml"]\noutput = "deploy"\n'
        'disable = "istio-sidecar"\noperatorVersion = "v0.4.0"\n\n[tool.other]\nkey = 1\n')
    config = load_config(start=repo)
    assert config.path == repo / "pyproject.toml"
    assert config.specs == ("specs/*.yaml",)
    assert config.output == "deploy"
    assert config.disable == frozenset({"istio-sidecar"})  # a single string is a list of one
    assert config.operator_version == "v0.4.0"


def test_pyproject_without_tool_mpigen_is_not_a_configuration(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_config(repo) is None
    assert load_config(start=repo) == Config()


def test_no_configuration_gives_the_defaults(repo: Path) -> None:
    config = load_config(start=repo)
    assert config == Config()
    assert config.path is None and config.specs == () and config.output is None
    assert config.disable == frozenset()


def test_defaults_root_is_the_working_directory(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    assert Config().root == Path.cwd()


def test_found_from_a_subfolder(repo: Path) -> None:
    (repo / CONFIG_FILE).write_text("output: deploy\n")
    deep = repo / "a" / "b" / "c"
    deep.mkdir(parents=True)
    config = load_config(start=deep)
    assert config.path == repo / CONFIG_FILE
    assert config.root == repo  # relative paths in it are relative to its folder, not to the start


def test_the_nearest_configuration_wins(repo: Path) -> None:
    (repo / CONFIG_FILE).write_text("output: outer\n")
    inner = repo / "team"
    inner.mkdir()
    (inner / CONFIG_FILE).write_text("output: inner\n")
    assert load_config(start=inner / ".").output == "inner"
    assert load_config(start=repo).output == "outer"


def test_mpigen_yaml_wins_over_pyproject_in_the_same_folder(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.mpigen]\noutput = "from-pyproject"\n')
    (repo / CONFIG_FILE).write_text("output: from-yaml\n")
    assert load_config(start=repo).output == "from-yaml"


def test_search_stops_at_the_repository_root(tmp_path: Path) -> None:
    (tmp_path / CONFIG_FILE).write_text("output: outside\n")  # above the repository: not ours
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    sub = repo / "sub"
    sub.mkdir()
    assert find_config(sub) is None
    assert load_config(start=sub) == Config()


def test_git_file_of_a_worktree_or_submodule_also_stops_the_search(tmp_path: Path) -> None:
    (tmp_path / CONFIG_FILE).write_text("output: outside\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".git").write_text("gitdir: ../elsewhere\n")
    assert find_config(repo) is None


def test_configuration_at_the_repository_root_is_found(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / CONFIG_FILE).write_text("output: here\n")
    sub = tmp_path / "x"
    sub.mkdir()
    assert find_config(sub) == tmp_path / CONFIG_FILE


def test_explicit_path_skips_the_search(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    (repo / CONFIG_FILE).write_text("output: found\n")
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "custom.yaml"
    elsewhere.write_text("output: explicit\n")
    config = load_config(elsewhere, start=repo)
    assert config.output == "explicit"
    assert config.root == elsewhere.parent


def test_empty_file_is_an_empty_configuration(repo: Path) -> None:
    path = repo / CONFIG_FILE
    path.write_text("# nothing set yet\n")
    assert load_config(start=repo) == Config(path=path)


@pytest.mark.parametrize(("text", "message"), [
    ("outputs: deploy\n", "unknown setting(s) outputs"),
    ("output: deploy\nfoo: 1\nbar: 2\n", "unknown setting(s) bar, foo"),
    ("- output\n", "expected a mapping of settings"),
    ("just a string\n", "expected a mapping of settings"),
    ("specs: 3\n", "specs must be a list of strings"),
    ("specs: [a.yaml, 3]\n", "specs must be a list of strings"),
    ("disable: {a: 1}\n", "disable must be a list of strings"),
    ("output: [a, b]\n", "output must be a string"),
    ("operatorVersion: 0.8\n", "operatorVersion must be a string"),
    ("cluster: true\n", "cluster must be a string"),
    ("schedulerName: 1\n", "schedulerName must be a string"),
    ("gang: kube-batch\n", "gang must be volcano, scheduler-plugins or none"),
    ("output: [unclosed\n", ".mpigen.yaml"),  # a YAML syntax error names the file
])
def test_unusable_yaml_configuration(repo: Path, text: str, message: str) -> None:
    (repo / CONFIG_FILE).write_text(text)
    with pytest.raises(ConfigError) as error:
        load_config(start=repo)
    assert message in str(error.value)
    assert str(repo / CONFIG_FILE) in str(error.value)  # every message says which file


@pytest.mark.parametrize(("text", "message"), [
    ("disable: [no-such-rule]\n", "disable: unknown code 'no-such-rule' (`mpigen rules` lists the lint rules, "
                                   "docs/errors.md every code)"),
    ("disable: [istio-sidcar, all]\n", "disable: unknown code 'istio-sidcar' (did you mean 'istio-sidecar'?)"),
    ("disable: slots-np\n", "disable: unknown code 'slots-np' (did you mean 'slots-np-mismatch'?)"),
])
def test_unknown_codes_to_disable_are_refused(repo: Path, text: str, message: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """They were accepted in silence, and switched nothing off (unknown settings were refused).
    Every command reads the configuration through mpigen.io.load_config, which says so."""
    from mpigen import io

    monkeypatch.chdir(repo)
    (repo / CONFIG_FILE).write_text(text)
    with pytest.raises(io.UsageError) as error:
        io.load_config(None)
    assert str(error.value).startswith(f"{repo / CONFIG_FILE}: {message}"), str(error.value)


def test_every_code_and_all_may_be_disabled(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mpigen import io
    from mpigen.diagnostics import CODES

    monkeypatch.chdir(repo)
    (repo / CONFIG_FILE).write_text(f"disable: [all, {', '.join(sorted(CODES))}]\n")
    assert io.load_config(None).disable == CODES | {"all"}


def test_unknown_key_message_lists_the_known_ones(repo: Path) -> None:
    (repo / CONFIG_FILE).write_text("ouptut: deploy\n")
    with pytest.raises(ConfigError, match="known: apply, cluster, disable, exclude, gang, operatorVersion, output, "
                                          "schedulerName, specs"):
        load_config(start=repo)


@pytest.mark.parametrize("gang", ["volcano", "scheduler-plugins", "none"])
def test_every_gang_is_accepted(repo: Path, gang: str) -> None:
    (repo / CONFIG_FILE).write_text(f"gang: {gang}\n")
    assert load_config(start=repo).gang == gang


@pytest.mark.parametrize(("text", "message"), [
    ('[tool.mpigen]\nunknown = 1\n', "unknown setting(s) unknown"),
    ('[tool.mpigen]\noutput = 3\n', "output must be a string"),
    ('[tool.mpigen]\nspecs = "a" \nspecs = "b"\n', "pyproject.toml"),  # invalid TOML (a duplicate key)
    ('[tool.mpigen]\noutput = "x"\n[broken\n', "pyproject.toml"),
])
def test_unusable_pyproject_configuration(repo: Path, text: str, message: str) -> None:
    (repo / "pyproject.toml").write_text(text)
    with pytest.raises(ConfigError) as error:
        load_config(start=repo)
    assert message in str(error.value)


def test_unreadable_explicit_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.yaml")


def test_configuration_is_read_with_a_safe_loader(repo: Path) -> None:
    (repo / CONFIG_FILE).write_text("output: !!python/object/apply:os.system ['echo pwned']\n")
    with pytest.raises(ConfigError):
        load_config(start=repo)


@pytest.mark.parametrize(("obj", "codes"), [
    ({"metadata": {"annotations": {"mpigen.dev/disable": "a,b"}}}, {"a", "b"}),
    ({"metadata": {"annotations": {"mpigen.dev/disable": " a , ,b ,"}}}, {"a", "b"}),
    ({"metadata": {"annotations": {"mpigen.dev/disable": "all"}}}, {"all"}),
    ({"metadata": {"annotations": {"mpigen.dev/disable": ""}}}, set()),
    ({"metadata": {"annotations": {"mpigen.dev/disable": ["a"]}}}, set()),  # not a string: ignored
    ({"metadata": {"annotations": {"other": "a"}}}, set()),
    ({"metadata": {"annotations": None}}, set()),
    ({"metadata": {"annotations": "a"}}, set()),
    ({"metadata": None}, set()),
    ({"metadata": []}, set()),
    ({}, set()),
    (None, set()),
    (["metadata"], set()),
    ("text", set()),
])
def test_disable_annotation(obj: object, codes: set[str]) -> None:
    assert disabled_by_annotation(obj) == frozenset(codes)


@pytest.mark.parametrize("value, server_side", [("server-side", True), ("client-side", False)])
def test_apply_says_how_the_repository_is_applied(repo: Path, value: str, server_side: bool) -> None:
    (repo / CONFIG_FILE).write_text(f"apply: {value}\n")
    config = load_config(start=repo)
    assert (config.apply, config.server_side) == (value, server_side)
    assert not Config().server_side  # not said: not taken as server-side


@pytest.mark.parametrize("value, message", [("serverside", "apply must be server-side or client-side"),
                                            ("true", "apply must be a string"),
                                            ("[server-side]", "apply must be a string")])
def test_apply_refuses_other_values(repo: Path, value: str, message: str) -> None:
    (repo / CONFIG_FILE).write_text(f"apply: {value}\n")
    with pytest.raises(ConfigError, match=message):
        load_config(start=repo)
