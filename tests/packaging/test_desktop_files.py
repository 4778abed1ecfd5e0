"""The Linux desktop integration: .desktop entry, AppStream metainfo, MIME type, icons, install-user.sh.

Validated with the freedesktop tools when they are installed (Debian:
desktop-file-utils, appstream, shared-mime-info); the keys that matter are
checked by parsing in any case.
"""

from __future__ import annotations

import configparser
import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from lxml import etree

REPO = Path(__file__).resolve().parents[2]
LINUX = REPO / "packaging" / "linux"
ICONS = REPO / "resources" / "icons"
APP_ID = "io.github.communicator_annotator"
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"
MIME = LINUX / "communicator-log.xml"
MIME_TYPE = "application/x-communicator-log+xml"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
ICON_SIZES = (16, 32, 48, 64, 128, 256)


def desktop_entry(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def needs(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not installed")
    return path


def test_desktop_entry_has_what_a_menu_and_a_file_manager_need():
    entry = desktop_entry(DESKTOP)
    assert entry["Type"] == "Application"
    assert entry["Name"] == "Communicator Annotator"
    assert entry["Icon"] == APP_ID
    assert entry["Exec"] == "annotator-gui %f" and entry["TryExec"] == "annotator-gui"
    assert entry["Terminal"] == "false"
    assert entry["Categories"].endswith(";") and "Science" in entry["Categories"].split(";")
    assert entry["MimeType"].split(";")[:2] == [MIME_TYPE, "application/xml"]


def test_desktop_entry_passes_desktop_file_validate():
    done = subprocess.run([needs("desktop-file-validate"), str(DESKTOP)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def test_metainfo_names_the_app_its_launcher_and_its_file_type():
    component = etree.parse(str(METAINFO)).getroot()
    assert component.get("type") == "desktop-application"
    assert component.findtext("id") == APP_ID
    assert component.findtext("project_license") == "MIT"
    assert component.find("launchable").text == DESKTOP.name
    assert MIME_TYPE in [element.text for element in component.iter("mediatype")]
    assert {element.text for element in component.iter("binary")} == {"annotator", "annotator-gui"}
    assert component.find("releases/release").get("version")


def test_metainfo_passes_appstreamcli_validate():
    done = subprocess.run(
        [needs("appstreamcli"), "validate", "--no-net", "--pedantic", str(METAINFO)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mime_type_matches_hub_logs_by_name_and_any_log_by_its_root_element():
    mime_type = etree.parse(str(MIME)).getroot().find(f"{MIME_NS}mime-type")
    assert mime_type.get("type") == MIME_TYPE
    assert mime_type.find(f"{MIME_NS}sub-class-of").get("type") == "application/xml"
    assert mime_type.find(f"{MIME_NS}glob").get("pattern") == "*-hublog.xml"
    root_xml = mime_type.find(f"{MIME_NS}root-XML")
    assert (root_xml.get("namespaceURI"), root_xml.get("localName")) == ("", "GC_LOG")
    sample_root = etree.parse(str(REPO / "sample_logs/travel-20261121-001/travel-20261121-001-hublog.xml")).getroot()
    assert sample_root.tag == "GC_LOG"


def test_mime_type_compiles_with_update_mime_database(tmp_path: Path):
    tool = needs("update-mime-database")
    database = tmp_path / "mime"
    (database / "packages").mkdir(parents=True)
    shutil.copy(MIME, database / "packages")
    done = subprocess.run(
        [tool, str(database)], capture_output=True, text=True, env=dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    assert f"{MIME_TYPE}:*-hublog.xml" in (database / "globs2").read_text()
    assert f" GC_LOG {MIME_TYPE}" in (database / "XMLnamespaces").read_text()


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


@pytest.mark.parametrize("size", ICON_SIZES)
def test_icon_png_has_its_size(size: int):
    assert png_size(ICONS / f"annotator-{size}.png") == (size, size)


def test_icon_svg_is_square_and_says_where_it_comes_from():
    svg = etree.parse(str(ICONS / "annotator.svg")).getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg" and svg.get("viewBox") == "0 0 256 256"
    notice = (ICONS / "README.md").read_text(encoding="utf-8")
    assert "original" in notice and "MIT" in notice


@pytest.fixture
def user_home(tmp_path: Path) -> dict[str, str]:
    """An environment whose home, data and config folders are the test's own."""
    env = dict(
        os.environ,
        HOME=str(tmp_path / "home"),
        XDG_DATA_HOME=str(tmp_path / "home/.local/share"),
        XDG_CONFIG_HOME=str(tmp_path / "home/.config"),
    )
    Path(env["HOME"]).mkdir()
    return env


def test_install_user_installs_for_one_user_and_uninstalls(tmp_path: Path, user_home: dict[str, str]):
    app = tmp_path / "my apps" / "annotator-gui"  # a space: Exec must quote the path
    app.parent.mkdir()
    app.write_text("#!/bin/sh\nexit 0\n")
    app.chmod(0o755)
    script = LINUX / "install-user.sh"
    done = subprocess.run(["bash", str(script), "--exec", str(app)], env=user_home, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    data = Path(user_home["XDG_DATA_HOME"])
    installed = data / "applications" / DESKTOP.name
    entry = desktop_entry(installed)
    assert entry["Exec"] == f'"{app}" %f' and entry["TryExec"] == str(app)
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(installed)], capture_output=True, text=True)
        assert check.returncode == 0 and not check.stdout.strip(), check.stdout
    for size in ICON_SIZES:
        assert png_size(data / f"icons/hicolor/{size}x{size}/apps/{APP_ID}.png") == (size, size)
    assert (data / f"icons/hicolor/scalable/apps/{APP_ID}.svg").is_file()
    assert (data / "mime/packages/communicator-log.xml").is_file()
    assert (data / f"metainfo/{APP_ID}.metainfo.xml").is_file()
    if shutil.which("update-mime-database"):
        assert (data / f"mime/{MIME_TYPE}.xml").is_file()
    if shutil.which("xdg-mime"):
        mimeapps = Path(user_home["XDG_CONFIG_HOME"]) / "mimeapps.list"
        assert f"{MIME_TYPE}={DESKTOP.name}" in mimeapps.read_text()

    removed = subprocess.run(["bash", str(script), "--uninstall"], env=user_home, capture_output=True, text=True)
    assert removed.returncode == 0, removed.stderr
    assert not installed.exists() and not (data / "mime/packages/communicator-log.xml").exists()
    assert not list((data / "icons").rglob(f"{APP_ID}.*"))
    if shutil.which("xdg-mime"):
        assert MIME_TYPE not in mimeapps.read_text()


def test_install_user_refuses_a_missing_program(user_home: dict[str, str], tmp_path: Path):
    done = subprocess.run(
        ["bash", str(LINUX / "install-user.sh"), "--exec", str(tmp_path / "nothing")],
        env=user_home,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and "not an executable program" in done.stderr
