"""The translation catalogue wherever the room runs (config/catalogue.py): compiled in Python
from the .po by every process, with no GNU gettext and no build or release step."""

import os
import shlex
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import polib
import pytest
from django.conf import settings

from config.catalogue import compile_catalogues, compiled_locale_paths, problems

from ..support.processes import PRODUCTION_SECRET_KEY, ROOT, free_port, process_env, shared_database_url

SPANISH_PO = ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po"


def _clean_checkout(target: Path) -> Path:
    """The files git would ship (tracked, and new ones not ignored), as a clone has them: no .mo."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def _procfile_web_line() -> str:
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    return line.removeprefix("web:").strip()


def test_the_mo_files_are_not_in_the_repository():
    listed = subprocess.run(["git", "ls-files", "*.mo"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert listed.stdout.split() == []


@pytest.mark.django_db
def test_the_procfile_web_line_from_a_clean_checkout_without_gettext_serves_spanish(tmp_path):
    checkout = _clean_checkout(tmp_path / "checkout")
    assert not list((checkout / "locale").rglob("*.mo"))
    # The static files come from the release step, run elsewhere (its own copy of the code):
    # nothing it leaves behind reaches the web process but the collected files.
    static_root = tmp_path / "static"
    production = {
        "DEBUG": "0", "SECRET_KEY": PRODUCTION_SECRET_KEY, "DATABASE_URL": shared_database_url(),
        "REDIS_URL": settings.REDIS_URL, "CACHE_URL": settings.CACHES["default"]["LOCATION"],
        "STATIC_ROOT": str(static_root), "EMBEDDED_CLOCK": "0", "LOG_LEVEL": "WARNING",
    }  # fmt: skip
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT, env=process_env(**production), check=True, capture_output=True,
    )  # fmt: skip
    # A PATH with the virtualenv's commands only: no msgfmt.
    path = str(Path(sys.executable).parent)
    assert shutil.which("msgfmt", path=path) is None
    port = free_port()
    command = _procfile_web_line().replace("0.0.0.0", "127.0.0.1")  # loopback only
    assert command.startswith("daphne ") and "${PORT:-8000}" in command
    log_path = tmp_path / "web.log"
    web = subprocess.Popen(
        ["/bin/sh", "-c", command], cwd=checkout, env=process_env(**production, PORT=str(port), PATH=path),
        stdout=log_path.open("w"), stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/", headers={"Accept-Language": "es", "X-Forwarded-Proto": "https"}
        )
        deadline, page = time.monotonic() + 60, None
        while page is None and time.monotonic() < deadline:
            assert web.poll() is None, log_path.read_text()
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    page = response.read().decode()
            except OSError:
                time.sleep(0.3)
        assert page is not None, log_path.read_text()
    finally:
        os.killpg(web.pid, 15)
        web.wait(timeout=30)
    assert '<html lang="es"' in page
    assert "Mesas" in page and "Tables" not in page, page[:2000]
    assert (checkout / "locale" / "es" / "LC_MESSAGES" / "django.mo").exists()


def test_a_stale_or_missing_mo_is_compiled_and_a_fresh_one_kept(tmp_path):
    source = tmp_path / "locale"
    (source / "es" / "LC_MESSAGES").mkdir(parents=True)
    po = source / "es" / "LC_MESSAGES" / "django.po"
    shutil.copy(SPANISH_PO, po)
    assert compile_catalogues(source) == [po.with_suffix(".mo")]
    assert compile_catalogues(source) == []  # up to date: not written again
    os.utime(po.with_suffix(".mo"), (time.time() - 60, time.time() - 60))
    assert compile_catalogues(source) == [po.with_suffix(".mo")]  # older than its .po
    compiled = {(e.msgctxt, e.msgid): e.msgstr for e in polib.mofile(str(po.with_suffix(".mo")))}
    translated = polib.pofile(str(po)).translated_entries()
    assert all(compiled[(e.msgctxt, e.msgid)] == e.msgstr for e in translated if not e.msgid_plural)


def test_a_source_tree_that_cannot_be_written_gets_its_catalogue_in_a_private_directory(tmp_path):
    source = tmp_path / "locale"
    (source / "es" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(SPANISH_PO, source / "es" / "LC_MESSAGES" / "django.po")
    # A file where the .mo would go makes the source tree unwritable for it, even to root.
    (source / "es" / "LC_MESSAGES" / "django.mo").mkdir()
    (source / "es" / "LC_MESSAGES" / "django.mo" / "x").touch()
    os.utime(source / "es" / "LC_MESSAGES" / "django.mo", (0, 0))  # older than the .po: to compile
    (paths,) = compiled_locale_paths(source)
    assert paths != source and (paths / "es" / "LC_MESSAGES" / "django.mo").is_file()
    assert oct((paths / "es" / "LC_MESSAGES" / "django.mo").stat().st_mode & 0o777) == "0o644"


def test_the_check_refuses_fuzzy_untranslated_and_changed_placeholders(tmp_path):
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    po.append(polib.POEntry(msgid="Seat %(seat)s", msgstr="Asiento %(asiento)s", flags=["python-format"]))
    po.append(polib.POEntry(msgid="Fold", msgstr=""))
    po.append(polib.POEntry(msgid="Call", msgstr="Igualar", flags=["fuzzy"]))
    po.append(polib.POEntry(msgid="Check", msgstr="Pasar"))
    po.save(str(tmp_path / "django.po"))
    found = problems(tmp_path / "django.po")
    assert len(found) == 3 and any("Seat" in p for p in found) and any("Fold" in p for p in found)
    assert problems(SPANISH_PO) == []


def test_compile_messages_needs_no_gettext(tmp_path):
    (tmp_path / "dirname").symlink_to(shutil.which("dirname"))
    result = subprocess.run(
        ["/bin/bash", str(ROOT / "scripts" / "compile-messages"), "--check"], cwd=ROOT, capture_output=True,
        text=True, env=process_env(PATH=f"{Path(sys.executable).parent}:{tmp_path}"),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert shlex.split(result.stdout)[0] == "locale/es/LC_MESSAGES/django.po:"
