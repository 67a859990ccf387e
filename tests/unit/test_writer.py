"""mpigen.emit.writer: atomic write of out/<job>/, touching only what mpigen owns."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from mpigen.emit import writer
from mpigen.emit.writer import OWNED_LIST, WriteError, owned_files, write_tree

FILES = {
    "base/kustomization.yaml": "resources:\n- mpijob.yaml\n",
    "base/mpijob.yaml": "kind: MPIJob\n",
    "overlays/prod/kustomization.yaml": "resources:\n- ../../base\n",
    "overlays/prod/mpijob-patch.yaml": "- op: replace\n",
}


def snapshot(root: Path) -> dict[str, tuple]:
    """Every entry under ``root``: kind, content or link target, inode."""
    out: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            st = path.lstat()
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path))  # recreated: same target, new inode
            elif path.is_dir():
                out[rel] = ("dir",)
            else:
                out[rel] = ("file", path.read_bytes(), st.st_ino, st.st_mtime_ns)
    return out


def files_under(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text("utf-8")
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def test_first_write_creates_tree_and_owned_list(tmp_path):
    out = tmp_path / "out"
    written = write_tree(out, "job", FILES)
    assert written == sorted(FILES)
    assert sorted(os.listdir(out)) == ["job"]  # no staging folder left
    tree = out / "job"
    assert files_under(tree) == {**FILES, OWNED_LIST: (
        '{\n  "generator": "mpigen",\n  "files": [\n'
        '    "base/kustomization.yaml",\n    "base/mpijob.yaml",\n'
        '    "overlays/prod/kustomization.yaml",\n    "overlays/prod/mpijob-patch.yaml"\n  ]\n}\n')}
    assert owned_files(tree) == set(FILES)
    assert json.loads((tree / OWNED_LIST).read_text()) == {"generator": "mpigen", "files": sorted(FILES)}


def test_content_is_written_verbatim_with_lf(tmp_path):
    write_tree(tmp_path, "job", {"a.yaml": "x: é\n", "b.yaml": "no newline"})
    assert (tmp_path / "job" / "a.yaml").read_bytes() == "x: é\n".encode()
    assert (tmp_path / "job" / "b.yaml").read_bytes() == b"no newline"


def test_second_write_removes_owned_files_no_longer_produced(tmp_path):
    write_tree(tmp_path, "job", FILES)
    fewer = {k: v for k, v in FILES.items() if not k.startswith("overlays/")}
    fewer["base/mpijob.yaml"] = "kind: MPIJob\nchanged: true\n"
    assert write_tree(tmp_path, "job", fewer) == sorted(fewer)
    tree = tmp_path / "job"
    assert files_under(tree) == {**fewer, OWNED_LIST: json.dumps(
        {"generator": "mpigen", "files": sorted(fewer)}, indent=2) + "\n"}
    assert not (tree / "overlays").exists()
    assert owned_files(tree) == set(fewer)
    assert sorted(os.listdir(tmp_path)) == ["job"]


def test_foreign_files_survive_with_same_inode_and_content(tmp_path):
    write_tree(tmp_path, "job", FILES)
    tree = tmp_path / "job"
    (tree / "README.md").write_text("my notes\n")
    (tree / "overlays" / "prod" / "extra-patch.yaml").write_text("extra\n")
    (tree / "mine" / "deep").mkdir(parents=True)
    (tree / "mine" / "deep" / "x.txt").write_bytes(b"\x00\x01binary")
    os.symlink("base/mpijob.yaml", tree / "link.yaml")
    before = snapshot(tree)
    foreign = ["README.md", "overlays/prod/extra-patch.yaml", "mine/deep/x.txt", "link.yaml"]

    # the overlay is no longer generated, base content changes
    new_files = {"base/kustomization.yaml": "resources: []\n", "base/mpijob.yaml": "kind: MPIJob\nv: 2\n"}
    write_tree(tmp_path, "job", new_files)
    after = snapshot(tree)
    for rel in foreign:
        assert after[rel] == before[rel], rel  # content, inode, mtime / link target
    assert (tree / "link.yaml").is_symlink()
    assert files_under(tree)["base/mpijob.yaml"] == "kind: MPIJob\nv: 2\n"
    assert not (tree / "overlays" / "prod" / "kustomization.yaml").exists()
    assert not (tree / "overlays" / "prod" / "mpijob-patch.yaml").exists()
    assert owned_files(tree) == set(new_files)

    # and again: foreign files are never adopted
    write_tree(tmp_path, "job", new_files)
    again = snapshot(tree)
    for rel in foreign:
        assert again[rel] == before[rel], rel
    assert sorted(os.listdir(tmp_path)) == ["job"]


def test_foreign_files_in_a_folder_that_is_not_an_mpigen_tree(tmp_path):
    tree = tmp_path / "job"
    tree.mkdir()
    (tree / "notes.txt").write_text("keep\n")
    ino = (tree / "notes.txt").stat().st_ino
    write_tree(tmp_path, "job", {"base/mpijob.yaml": "x\n"})
    assert (tree / "notes.txt").read_text() == "keep\n"
    assert (tree / "notes.txt").stat().st_ino == ino
    assert owned_files(tree) == {"base/mpijob.yaml"}


def test_foreign_empty_folder_survives(tmp_path):
    write_tree(tmp_path, "job", FILES)
    (tmp_path / "job" / "scratch").mkdir()
    write_tree(tmp_path, "job", FILES)
    assert (tmp_path / "job" / "scratch").is_dir()


def test_clash_with_foreign_file_raises_and_leaves_tree_unchanged(tmp_path):
    write_tree(tmp_path, "job", FILES)
    tree = tmp_path / "job"
    (tree / "base" / "extra.yaml").write_text("user\n")
    before = snapshot(tree)
    with pytest.raises(WriteError) as info:
        write_tree(tmp_path, "job", {**FILES, "base/extra.yaml": "generated\n"})
    assert "base/extra.yaml" in str(info.value)
    assert snapshot(tree) == before
    assert sorted(os.listdir(tmp_path)) == ["job"]


def test_clash_with_foreign_file_in_folder_that_is_not_an_mpigen_tree(tmp_path):
    tree = tmp_path / "job"
    (tree / "base").mkdir(parents=True)
    (tree / "base" / "mpijob.yaml").write_text("hand written\n")
    before = snapshot(tree)
    with pytest.raises(WriteError):
        write_tree(tmp_path, "job", {"base/mpijob.yaml": "generated\n"})
    assert snapshot(tree) == before
    assert sorted(os.listdir(tmp_path)) == ["job"]


@pytest.mark.parametrize("foreign, generated", [("patches", "patches/x.yaml"), ("notes/a.md", "notes")])
def test_parent_child_clash_with_foreign_file_is_a_write_error(tmp_path, foreign, generated):
    write_tree(tmp_path, "job", FILES)
    tree = tmp_path / "job"
    (tree / foreign).parent.mkdir(parents=True, exist_ok=True)
    (tree / foreign).write_text("user\n")
    before = snapshot(tree)
    try:
        with pytest.raises(WriteError):
            write_tree(tmp_path, "job", {**FILES, generated: "generated\n"})
    finally:
        assert snapshot(tree) == before
        assert sorted(os.listdir(tmp_path)) == ["job"]


def test_owned_file_edited_by_user_is_overwritten(tmp_path):
    write_tree(tmp_path, "job", FILES)
    (tmp_path / "job" / "base" / "mpijob.yaml").write_text("hand edit\n")
    write_tree(tmp_path, "job", FILES)
    assert (tmp_path / "job" / "base" / "mpijob.yaml").read_text() == FILES["base/mpijob.yaml"]


def test_target_that_is_a_file_is_a_write_error(tmp_path):
    (tmp_path / "job").write_text("not a folder\n")
    with pytest.raises(WriteError):
        write_tree(tmp_path, "job", FILES)
    assert (tmp_path / "job").read_text() == "not a folder\n"
    assert sorted(os.listdir(tmp_path)) == ["job"]


def test_stale_staging_folder_from_killed_run_is_cleaned(tmp_path):
    write_tree(tmp_path, "job", FILES)
    for name in (".job.mpigen-staging-abc123", ".job.mpigen-staging-old-xyz"):
        stale = tmp_path / name
        (stale / "base").mkdir(parents=True)
        (stale / "base" / "mpijob.yaml").write_text("half written")
    other = tmp_path / ".otherjob.mpigen-staging-keep"  # another job's: not ours to remove
    other.mkdir()
    (tmp_path / "job.txt").write_text("unrelated\n")
    write_tree(tmp_path, "job", FILES)
    assert sorted(os.listdir(tmp_path)) == [".otherjob.mpigen-staging-keep", "job", "job.txt"]
    written = files_under(tmp_path / "job")
    assert {k: written[k] for k in FILES} == FILES


def test_stale_staging_cleaned_on_first_write(tmp_path):
    stale = tmp_path / ".job.mpigen-staging-zzz"
    stale.mkdir()
    (stale / "f").write_text("x")
    write_tree(tmp_path, "job", FILES)
    assert sorted(os.listdir(tmp_path)) == ["job"]


def test_failure_midway_leaves_old_tree_byte_for_byte(tmp_path, monkeypatch):
    write_tree(tmp_path, "job", FILES)
    tree = tmp_path / "job"
    (tree / "README.md").write_text("mine\n")
    before = snapshot(tree)
    calls = []
    real_write = writer._write

    def failing(path, content):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device", str(path))
        real_write(path, content)

    monkeypatch.setattr(writer, "_write", failing)
    changed = {k: v + "# changed\n" for k, v in FILES.items()}
    with pytest.raises(OSError):
        write_tree(tmp_path, "job", changed)
    assert len(calls) == 2
    assert snapshot(tree) == before
    assert sorted(os.listdir(tmp_path)) == ["job"]  # no staging folder remains

    monkeypatch.setattr(writer, "_write", real_write)
    write_tree(tmp_path, "job", changed)
    assert files_under(tree)["base/mpijob.yaml"] == FILES["base/mpijob.yaml"] + "# changed\n"
    assert (tree / "README.md").read_text() == "mine\n"


def test_failure_on_first_write_leaves_nothing(tmp_path, monkeypatch):
    def failing(path, content):
        raise OSError(5, "I/O error", str(path))

    monkeypatch.setattr(writer, "_write", failing)
    with pytest.raises(OSError):
        write_tree(tmp_path / "out", "job", FILES)
    assert os.listdir(tmp_path / "out") == []


def test_without_rename_exchange(tmp_path, monkeypatch):
    # systems without renameat2(RENAME_EXCHANGE): two renames
    monkeypatch.setattr(writer, "_exchange", lambda a, b: False)
    write_tree(tmp_path, "job", FILES)
    (tmp_path / "job" / "README.md").write_text("mine\n")
    ino = (tmp_path / "job" / "README.md").stat().st_ino
    fewer = {"base/mpijob.yaml": "v2\n"}
    write_tree(tmp_path, "job", fewer)
    assert files_under(tmp_path / "job") == {"README.md": "mine\n", "base/mpijob.yaml": "v2\n",
                                             OWNED_LIST: json.dumps({"generator": "mpigen",
                                                                     "files": ["base/mpijob.yaml"]}, indent=2) + "\n"}
    assert (tmp_path / "job" / "README.md").stat().st_ino == ino
    assert sorted(os.listdir(tmp_path)) == ["job"]


def test_without_rename_exchange_failed_swap_restores_old_tree(tmp_path, monkeypatch):
    write_tree(tmp_path, "job", FILES)
    tree = tmp_path / "job"
    (tree / "README.md").write_text("mine\n")
    before = snapshot(tree)
    monkeypatch.setattr(writer, "_exchange", lambda a, b: False)
    real_rename = os.rename

    def rename(src, dst):
        if Path(dst) == tree and ".mpigen-staging-" in Path(src).name:
            raise OSError(5, "I/O error", str(dst))
        return real_rename(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    with pytest.raises(OSError):
        write_tree(tmp_path, "job", {k: "new\n" for k in FILES})
    monkeypatch.setattr(os, "rename", real_rename)
    assert tree.is_dir()
    assert snapshot(tree) == before


def test_owned_files_tolerates_missing_or_bad_list(tmp_path):
    assert owned_files(tmp_path) == set()
    (tmp_path / OWNED_LIST).write_text("not json")
    assert owned_files(tmp_path) == set()
    (tmp_path / OWNED_LIST).write_text("[1, 2]")
    assert owned_files(tmp_path) == set()
    (tmp_path / OWNED_LIST).write_text('{"files": ["a", "b/c"]}')
    assert owned_files(tmp_path) == {"a", "b/c"}


def test_missing_owned_list_makes_every_old_file_foreign(tmp_path):
    write_tree(tmp_path, "job", FILES)
    (tmp_path / "job" / OWNED_LIST).unlink()
    with pytest.raises(WriteError):
        write_tree(tmp_path, "job", FILES)


# --------------------------------------------------------------------------------------------
# Where the new tree is staged: beside the output folder, under names no manifest reader takes
# --------------------------------------------------------------------------------------------

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


def test_staging_is_beside_the_output_folder_under_names_no_reader_takes(tmp_path, monkeypatch):
    out = tmp_path / "deploy"
    write_tree(out, "job", FILES)
    (out / "job" / "mine.yaml").write_text("kind: Mine\n")  # the user's: carried as a link
    seen = []
    real_write = writer._write

    def watching(path, content):
        real_write(path, content)
        staging = [p for p in tmp_path.iterdir() if p.name.startswith(".deploy.job.mpigen-staging-")]
        inside = [name for _root, _dirs, names in os.walk(out) for name in names if ".mpigen-stag" in name]
        manifests = [p.name for p in staging[0].rglob("*") if p.name.endswith(MANIFEST_SUFFIXES)]
        seen.append((len(staging), inside, manifests))

    monkeypatch.setattr(writer, "_write", watching)
    write_tree(out, "job", {k: v + "# v2\n" for k, v in FILES.items()})
    assert len(seen) == len(FILES) + 1  # every file, then the owned list
    assert all(found == (1, [], []) for found in seen), seen
    assert sorted(os.listdir(tmp_path)) == ["deploy"]
    assert (out / "job" / "mine.yaml").read_text() == "kind: Mine\n"
    assert not [p for p in out.rglob("*") if p.name.endswith(writer.STAGED)]


def test_staging_stays_inside_when_the_parent_cannot_take_it(tmp_path, monkeypatch):
    out = tmp_path / "deploy"
    out.mkdir()
    real_mkdtemp = tempfile.mkdtemp
    used = []

    def mkdtemp(prefix, dir):
        if Path(dir) == tmp_path:
            raise PermissionError(13, "Permission denied", str(dir))
        used.append(Path(dir))
        return real_mkdtemp(prefix=prefix, dir=dir)

    monkeypatch.setattr(tempfile, "mkdtemp", mkdtemp)
    write_tree(out, "job", FILES)
    assert used == [out]
    assert files_under(out / "job")["base/mpijob.yaml"] == FILES["base/mpijob.yaml"]
    assert sorted(os.listdir(out)) == ["job"]


def test_staging_stays_inside_a_mount_point(tmp_path, monkeypatch):
    out = tmp_path / "deploy"
    out.mkdir()
    real_stat = writer.os.stat

    class Other:  # the parent on another device, as above a mount point
        st_dev = -1

    monkeypatch.setattr(writer.os, "stat", lambda p, *a, **k: Other() if Path(p) == tmp_path else real_stat(p, *a, **k))
    assert writer._beside(out) is None
    assert writer._make_staging(out, "job").parent == out


def _stale(folder: Path, files=("base/mpijob.yaml",)) -> Path:
    for rel in files:
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text("half written")
    return folder


def test_stale_staging_inside_and_beside_is_found_reported_and_removed(tmp_path):
    out = tmp_path / "deploy"
    write_tree(out, "job", FILES)
    write_tree(out, "other", FILES)
    inside = _stale(out / ".job.mpigen-staging-abc12345")
    beside = _stale(tmp_path / ".deploy.other.mpigen-staging-xyz12345")
    not_ours = [_stale(tmp_path / ".elsewhere.job.mpigen-staging-keep0000"), _stale(tmp_path / "deploy-notes")]
    assert writer.stale_staging(out) == [(inside, True), (beside, False)]
    diagnostics = writer.stale_staging_diagnostics(out, "deploy")
    assert [(d.file, d.code, d.severity.value) for d in diagnostics] == [
        ("deploy/.job.mpigen-staging-abc12345", "stale-staging", "error"),
        (".deploy.other.mpigen-staging-xyz12345", "stale-staging", "warning")]
    assert "kubectl apply -R -f deploy" in diagnostics[0].message
    assert "the trees in deploy are whole" in diagnostics[1].message

    write_tree(out, "other", FILES)  # a build removes its own job's
    assert writer.stale_staging(out) == [(inside, True)]
    _stale(beside)
    writer.clean_all_stale(out)  # check --fix: every job's
    assert writer.stale_staging(out) == [] and writer.stale_staging_diagnostics(out, "deploy") == []
    assert all(folder.exists() for folder in not_ours)
    assert sorted(os.listdir(out)) == ["job", "other"]


@pytest.mark.parametrize("where", ["deploy/.job", ".deploy.job"])  # inside DIR, and beside it
def test_clean_all_stale_puts_a_parked_old_tree_back(tmp_path, where):
    out = tmp_path / "deploy"
    write_tree(out, "job", FILES)
    parked = tmp_path / f"{where}.mpigen-staging-old-abc12345"
    parked.mkdir()
    os.rename(out / "job", parked / "job")  # killed between the fallback's two renames
    writer.clean_all_stale(out)
    assert files_under(out / "job")["base/mpijob.yaml"] == FILES["base/mpijob.yaml"]
    assert sorted(os.listdir(out)) == ["job"] and sorted(os.listdir(tmp_path)) == ["deploy"]


def test_the_fallback_parks_the_old_tree_beside_the_output_folder(tmp_path, monkeypatch):
    out = tmp_path / "deploy"
    write_tree(out, "job", FILES)
    monkeypatch.setattr(writer, "_exchange", lambda a, b: False)
    real_rename = os.rename
    parked = []

    def rename(src, dst):
        if Path(dst).name == "job" and Path(dst).parent.name.startswith(".deploy.job.mpigen-staging-old-"):
            parked.append(Path(dst).parent)
        return real_rename(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    write_tree(out, "job", {"base/mpijob.yaml": "v2\n"})
    assert [p.parent for p in parked] == [tmp_path]
    assert sorted(os.listdir(tmp_path)) == ["deploy"]


@pytest.mark.parametrize("umask", [0o022, 0o027], ids=["umask-022", "umask-027"])
@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_the_tree_follows_the_umask(tmp_path, monkeypatch, umask, exchange):
    """Folders get 0777 and files 0666 less the umask, as mkdir and open would give them: the
    tree's own folder too, although it was a staging folder (mkdtemp makes those 0700)."""
    if not exchange:
        monkeypatch.setattr(writer, "_exchange", lambda a, b: False)
    out = tmp_path / "deploy"
    old = os.umask(umask)
    try:
        write_tree(out, "job", FILES)  # the first write: a rename
        first = {p: p.stat().st_mode & 0o777 for p in [out / "job", *(out / "job").rglob("*")]}
        write_tree(out, "job", {**FILES, "overlays/dev/kustomization.yaml": "resources:\n- ../../base\n"})
        second = {p: p.stat().st_mode & 0o777 for p in [out / "job", *(out / "job").rglob("*")]}
    finally:
        os.umask(old)
    for modes in (first, second):
        assert len(modes) > 5
        for path, mode in modes.items():
            assert mode == (0o777 if path.is_dir() else 0o666) & ~umask, (path, oct(mode))
    assert oct(out.stat().st_mode & 0o777) == oct(0o777 & ~umask)


def test_remove_tree_of_mpigen_files_only_takes_the_folder_in_one_rename(tmp_path, monkeypatch):
    out = tmp_path / "deploy"
    write_tree(out, "job", FILES)
    write_tree(out, "other", FILES)
    real_rename = os.rename
    renames = []
    monkeypatch.setattr(os, "rename", lambda src, dst: (renames.append((Path(src), Path(dst))), real_rename(src, dst)))
    assert writer.remove_tree(out, "job") == sorted(FILES)
    assert [src for src, _ in renames] == [out / "job"]  # out of DIR at once, deleted outside it
    assert renames[0][1].parent.parent == tmp_path
    assert sorted(os.listdir(out)) == ["other"] and sorted(os.listdir(tmp_path)) == ["deploy"]


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_remove_tree_keeps_every_file_of_the_user(tmp_path, monkeypatch, exchange):
    if not exchange:
        monkeypatch.setattr(writer, "_exchange", lambda a, b: False)
    out = tmp_path / "deploy"
    write_tree(out, "job", FILES)
    tree = out / "job"
    (tree / "README.md").write_text("mine\n")
    (tree / "overlays/prod/extra.yaml").write_text("mine too\n")
    os.symlink("../base", tree / "overlays/link")
    (tree / "notes").mkdir()
    before = snapshot(tree)
    assert writer.remove_tree(out, "job") == sorted(FILES)
    after = snapshot(tree)
    assert sorted(after) == ["README.md", "notes", "overlays", "overlays/link", "overlays/prod",
                             "overlays/prod/extra.yaml"]
    for rel in ("README.md", "overlays/prod/extra.yaml", "overlays/link", "notes"):
        assert after[rel] == before[rel]  # same inode, content and time; the link's target
    assert sorted(os.listdir(tmp_path)) == ["deploy"]


def test_remove_tree_refuses_a_folder_mpigen_did_not_write(tmp_path):
    out = tmp_path / "deploy"
    write_tree(out, "job", FILES)
    (out / "job" / OWNED_LIST).unlink()
    before = snapshot(out)
    with pytest.raises(WriteError, match="did not write it"):
        writer.remove_tree(out, "job")
    assert snapshot(out) == before


def test_a_removal_killed_before_its_deletion_is_finished_by_the_next_run(tmp_path):
    """The folder moved out of DIR stays gone: unlike a tree the fallback parked, it is not put back."""
    out = tmp_path / "deploy"
    write_tree(out, "job", FILES)
    gone = tmp_path / ".deploy.job.mpigen-staging-gone-abc12345"
    gone.mkdir()
    os.rename(out / "job", gone / "job")
    assert [folder for folder, _ in writer.stale_staging(out)] == [gone]
    writer.clean_all_stale(out)
    assert sorted(os.listdir(out)) == [] and sorted(os.listdir(tmp_path)) == ["deploy"]
