"""The Debian package `make deb` builds: what it installs, what it depends on, and that its binary
serves the page from a scratch root (`dpkg -x`), with no Swift toolchain behind it."""

import glob
import os
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

from support.server import REPO_ROOT, StackWebServer
from support.waiting import wait_until

# The Swift runtime is linked in: none of its libraries may be loaded from the system.
SWIFT_RUNTIME = re.compile(r"libswift|libFoundation|libdispatch|libBlocksRuntime|lib_FoundationICU")
HARDENING = ["NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=read-only", "PrivateTmp=yes",
             "PrivateDevices=yes", "CapabilityBoundingSet=", "RestrictSUIDSGID=yes", "ProtectKernelTunables=yes",
             "SystemCallFilter=@system-service"]


def deb_path():
    """$STACKWEB_DEB, else the one package in .build/deb."""
    if os.environ.get("STACKWEB_DEB"):
        return Path(os.environ["STACKWEB_DEB"])
    found = glob.glob(str(REPO_ROOT / ".build/deb/stackweb_*.deb"))
    assert len(found) == 1, f"expected one package in .build/deb (run `make deb`), found {found}"
    return Path(found[0])


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def deb():
    return deb_path()


@pytest.fixture(scope="module")
def scratch(deb, tmp_path_factory):
    """The package's files unpacked below a scratch root, as `dpkg -i` would lay them out."""
    root = tmp_path_factory.mktemp("root")
    run("dpkg", "-x", str(deb), str(root))
    return root


def package_owning(path):
    """The package that installed `path`, by the name dpkg knows it under: with merged /usr,
    /lib/x86_64-linux-gnu/libc.so.6 may be listed under /lib or under /usr/lib."""
    candidates = [path, os.path.realpath(path)]
    candidates += [c.removeprefix("/usr") if c.startswith("/usr/") else "/usr" + c for c in list(candidates)]
    for candidate in candidates:
        found = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if found.returncode == 0:
            return found.stdout.split(":")[0]
    raise AssertionError(f"no package owns {path}")


def field(deb, name):
    return run("dpkg-deb", "-f", str(deb), name).strip()


def dependency_names(deb):
    return {re.split(r"[ (:]", alternative.strip())[0]
            for clause in field(deb, "Depends").split(",") for alternative in clause.split("|")}


def test_control_names_the_binary_version_and_architecture(deb, scratch):
    said = run(str(scratch / "usr/bin/stackweb"), "--version")
    version = said.split()[1]
    # `make deb` writes the commit in (the Makefile's build-info).
    assert re.fullmatch(r"stackweb \S+ \(commit [0-9a-f]{12}(-modified)?\)\n", said), said
    assert field(deb, "Package") == "stackweb"
    assert field(deb, "Version") == version
    assert field(deb, "Architecture") == run("dpkg", "--print-architecture").strip()
    assert deb.name == f"stackweb_{version}_{field(deb, 'Architecture')}.deb"


def test_installs_binary_page_photos_unit_defaults_and_manual(deb, scratch):
    for path in ["usr/bin/stackweb", "usr/share/stackweb/web/index.html", "lib/systemd/system/stackweb.service",
                 "etc/default/stackweb", "usr/share/man/man1/stackweb.1.gz", "usr/share/doc/stackweb/copyright",
                 "usr/share/doc/stackweb/changelog.gz"]:
        assert (scratch / path).is_file(), path
    photos = sorted(p.name for p in (scratch / "usr/share/stackweb/demo-photos").iterdir())
    assert photos == sorted(p.name for p in (REPO_ROOT / "Resources/demo-photos").iterdir())
    assert os.access(scratch / "usr/bin/stackweb", os.X_OK)
    assert (scratch / "etc/default/stackweb").stat().st_mode & 0o777 == 0o600
    assert "/etc/default/stackweb" in run("dpkg-deb", "-I", str(deb), "conffiles").split()
    owners = run("dpkg-deb", "-c", str(deb))
    assert all(" root/root " in line for line in owners.splitlines()), "files owned by root (--root-owner-group)"


def test_every_needed_library_is_a_listed_dependency(deb, scratch):
    binary = scratch / "usr/bin/stackweb"
    needed = re.findall(r"^\s*NEEDED\s+(\S+)", run("objdump", "-p", str(binary)), re.M)
    assert needed and not [name for name in needed if SWIFT_RUNTIME.search(name)], needed
    loaded = run("ldd", str(binary))
    # `libc.so.6 => /lib/…/libc.so.6 (0x…)`, and the loader as `/lib64/ld-linux-x86-64.so.2 (0x…)`.
    resolved = dict(re.findall(r"^\s*(\S+) => (/\S+)", loaded, re.M))
    resolved.update((os.path.basename(path), path) for path in re.findall(r"^\s*(/\S+) \(0x", loaded, re.M))
    depends = dependency_names(deb)
    for library in needed:
        assert library in resolved, f"{library} is not found on this machine"
        owner = package_owning(resolved[library])
        assert owner in depends, f"{library} comes from {owner}, which Depends ({sorted(depends)}) lacks"
    assert not any(SWIFT_RUNTIME.search(line) for line in run("ldd", str(binary)).splitlines())


def test_depends_names_the_debian_runtime_libraries(deb):
    assert {"libmicrohttpd12", "libvips42", "libsqlite3-0", "libhiredis0.14", "libqrencode4", "libc6", "adduser"} \
        <= dependency_names(deb)


def test_maintainer_scripts_parse(deb, tmp_path):
    run("dpkg-deb", "-e", str(deb), str(tmp_path / "control"))
    for script in ["postinst", "prerm", "postrm"]:
        path = tmp_path / "control" / script
        assert os.access(path, os.X_OK), script
        assert path.read_text().startswith("#!/bin/sh\n"), script
        subprocess.run(["sh", "-n", str(path)], check=True)


def test_maintainer_scripts_leave_units_to_deb_systemd_helper(deb, tmp_path):
    """As debhelper's snippets: enablement through deb-systemd-helper, starts and stops through
    deb-systemd-invoke (which honours policy-rc.d); systemctl only to reload systemd's view."""
    run("dpkg-deb", "-e", str(deb), str(tmp_path / "control"))
    for script in ["postinst", "prerm", "postrm"]:
        code = [line for line in (tmp_path / "control" / script).read_text().splitlines()
                if not line.lstrip().startswith("#")]
        calls = [line for line in code if re.search(r"(^|;)\s*systemctl\b", line) and "daemon-reload" not in line]
        assert not calls, f"{script} calls systemctl: {calls}"
    postinst = (tmp_path / "control" / "postinst").read_text()
    # The account's home exists before adduser looks for it.
    assert postinst.index('install -d -m 0700 "$DPKG_ROOT/var/lib/stackweb"') < postinst.index("adduser --system")


class ScratchInstall:
    """The package installed into a scratch root as dpkg would, step by step: its files (`dpkg -x`),
    then its maintainer scripts with DPKG_ROOT set (deb-systemd-helper keeps its records and links
    below it). The account commands, which know no root, are stand-ins that log their call."""

    def __init__(self, deb, tmp_path):
        self.root = tmp_path / "root"
        self.control = tmp_path / "control"
        run("dpkg-deb", "-e", str(deb), str(self.control))
        run("dpkg", "-x", str(deb), str(self.root))
        self.stubs = tmp_path / "stubs"
        self.stubs.mkdir()
        self.calls = tmp_path / "calls"
        # getent answers 2 (no such account), as on a machine the package was never on.
        for name, status in [("adduser", 0), ("getent", 2), ("chown", 0)]:
            (self.stubs / name).write_text(f'#!/bin/sh\necho {name} "$@" >>{self.calls}\nexit {status}\n')
            (self.stubs / name).chmod(0o755)

    def script(self, name, *arguments):
        # As dpkg runs them (deb-systemd-helper refuses to run outside a maintainer script).
        environment = dict(os.environ, DPKG_ROOT=str(self.root), DPKG_MAINTSCRIPT_PACKAGE="stackweb",
                           DPKG_MAINTSCRIPT_NAME=name, PATH=f"{self.stubs}:{os.environ['PATH']}")
        return subprocess.run([str(self.control / name), *arguments], env=environment, check=True,
                              capture_output=True, text=True)

    def enabled(self):
        """What systemd would start at boot, read from the root's links by systemd itself."""
        answer = subprocess.run(["systemctl", "--root", str(self.root), "is-enabled", "stackweb.service"],
                                capture_output=True, text=True)
        return answer.stdout.strip()

    def link(self):
        return self.root / "etc/systemd/system/multi-user.target.wants/stackweb.service"


@pytest.fixture
def scratch_install(deb, tmp_path):
    if not shutil.which("deb-systemd-helper"):
        pytest.skip("deb-systemd-helper is not installed (apt install init-system-helpers)")
    return ScratchInstall(deb, tmp_path)


@pytest.mark.skipif(not shutil.which("systemctl"), reason="systemctl is not installed")
def test_a_first_install_enables_and_starts_nothing(scratch_install):
    install = scratch_install
    install.script("postinst", "configure", "")
    assert not install.link().is_symlink() and install.enabled() == "disabled"
    # Recorded, so that purge finds the links an admin's `systemctl enable` would make.
    assert (install.root / "var/lib/systemd/deb-systemd-helper-enabled/stackweb.service.dsh-also").is_file()
    assert (install.root / "var/lib/stackweb").is_dir()
    assert "adduser --system --group --home /var/lib/stackweb" in install.calls.read_text()


@pytest.mark.skipif(not shutil.which("systemctl"), reason="systemctl is not installed")
def test_an_upgrade_keeps_the_admins_choice(scratch_install):
    install = scratch_install
    install.script("postinst", "configure", "")
    # Not enabled by the admin: an upgrade leaves it so.
    install.script("prerm", "upgrade", "0.1.0")
    install.script("postinst", "configure", "0.1.0")
    assert install.enabled() == "disabled"
    # Enabled by the admin: it stays enabled across the upgrade.
    run("systemctl", "--root", str(install.root), "enable", "stackweb.service")
    assert install.enabled() == "enabled"
    install.script("prerm", "upgrade", "0.1.0")
    install.script("postinst", "configure", "0.1.0")
    assert install.enabled() == "enabled" and install.link().is_symlink()
    # Removed, the links go; installed again, nothing comes back enabled.
    install.script("prerm", "remove")
    assert install.enabled() == "disabled"
    install.script("postinst", "configure", "0.1.0")
    assert install.enabled() == "disabled"


def test_purge_keeps_the_admins_backups(scratch_install):
    install = scratch_install
    install.script("postinst", "configure", "")
    state = install.root / "var/lib/stackweb"
    made = ["state.db", "state.db-wal", "state.db-shm", "state.db-lock", "token"]
    for name in made + ["backup.db"]:
        (state / name).write_bytes(b"x")
    cache = install.root / "var/cache/stackweb"
    cache.mkdir(parents=True)
    (cache / "index.db").write_bytes(b"x")
    install.script("prerm", "remove")
    purged = install.script("postrm", "purge")
    assert sorted(p.name for p in state.iterdir()) == ["backup.db"]
    assert "backup.db" in purged.stderr and not cache.exists()
    # With nothing of the admin's left, the folder goes too.
    (state / "backup.db").unlink()
    install.script("postrm", "purge")
    assert not state.exists()


def test_lintian_finds_no_error_and_no_warning(deb):
    if not shutil.which("lintian"):
        pytest.skip("lintian is not installed (apt install lintian)")
    found = subprocess.run(["lintian", "--fail-on", "none", "--tag-display-limit", "0", str(deb)],
                           capture_output=True, text=True).stdout
    serious = [line for line in found.splitlines() if line.startswith(("E:", "W:"))]
    assert not serious, "\n".join(serious)


def readme_depends():
    readme = (REPO_ROOT / "README.md").read_text()
    listed = re.search(r"<!-- depends: [^\n]*-->\n(.*?)\n<!-- /depends -->", readme, re.S)
    assert listed, "README.md lacks its list of dependencies between the depends markers"
    return listed.group(1).strip()


def test_readme_lists_exactly_the_packages_depends(deb):
    assert readme_depends() == run(str(REPO_ROOT / "scripts/deb-depends.sh"), str(deb)).strip(), \
        "README.md's dependency list is not the package's: run `make readme-depends`"


def test_the_docs_token_step_keeps_the_shipped_comments(tmp_path):
    """docs/photo-frame.md's command sets the token on its one line of the shipped
    /etc/default/stackweb, whose comments stay (a `printf | tee` would wipe them); run again (a new
    token), it replaces that line."""
    doc = (REPO_ROOT / "docs/photo-frame.md").read_text()
    steps = set(re.findall(r"^sudo sed -i (\"[^\"]*STACKWEB_TOKEN[^\"]*\") /etc/default/stackweb$", doc, re.M))
    assert len(steps) == 1, f"expected one token step, found {steps}"
    assert "tee /etc/default/stackweb" not in doc
    step = steps.pop()
    shipped = (REPO_ROOT / "packaging/debian/default").read_text()
    comments = [line for line in shipped.splitlines() if line.startswith("#") and "STACKWEB_TOKEN=" not in line]
    target = tmp_path / "default"
    target.write_text(shipped)
    for _ in range(2):
        subprocess.run(["sh", "-c", f"sed -i {step} {target}"], check=True)
        written = target.read_text().splitlines()
        tokens = [line for line in written if "STACKWEB_TOKEN=" in line]
        assert len(tokens) == 1 and re.fullmatch(r"STACKWEB_TOKEN=[0-9a-f]{32}", tokens[0]), written
        assert [line for line in written if line.startswith("#")] == comments


def test_unit_is_hardened_and_keeps_the_token_off_the_command_line(scratch):
    unit = (scratch / "lib/systemd/system/stackweb.service").read_text()
    settings = [line.strip() for line in unit.splitlines() if line.strip() and not line.startswith("#")]
    for setting in ["User=stackweb", "StateDirectory=stackweb", "CacheDirectory=stackweb",
                    "EnvironmentFile=-/etc/default/stackweb", "RestartPreventExitStatus=78"] + HARDENING:
        assert setting in settings, setting
    exec_start = next(line for line in settings if line.startswith("ExecStart="))
    assert "token" not in exec_start.lower() and "TOKEN" not in "".join(
        line for line in settings if line.startswith("Environment="))
    defaults = (scratch / "etc/default/stackweb").read_text()
    assert [line for line in defaults.splitlines() if line and not line.startswith("#")] == []
    assert "STACKWEB_TOKEN=" in defaults


def test_unit_bounds_its_resources_and_gives_up_on_a_failing_start(scratch):
    unit = (scratch / "lib/systemd/system/stackweb.service").read_text()
    settings = [line.strip() for line in unit.splitlines() if line.strip() and not line.startswith("#")]
    for setting in ["Restart=on-failure", "StartLimitIntervalSec=60", "StartLimitBurst=5", "MemoryMax=1G",
                    "TasksMax=256", "PrivateUsers=yes", "SystemCallFilter=~@resources @privileged"]:
        assert setting in settings, setting
    assert "Restart=always" not in settings
    # The start limit belongs to [Unit] (systemd ignores it in [Service]).
    unit_section = unit.split("[Service]")[0]
    assert "StartLimitIntervalSec=60" in unit_section and "StartLimitBurst=5" in unit_section
    # getifaddrs (the LAN addresses printed at start) asks the kernel over netlink.
    families = next(line for line in settings if line.startswith("RestrictAddressFamilies="))
    assert "AF_NETLINK" in families.split("=", 1)[1].split()


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not installed")
def test_unit_passes_systemd_analyze_verify(scratch, tmp_path):
    # The unit as installed, but starting the scratch root's binary: verify checks that it runs.
    unit = (scratch / "lib/systemd/system/stackweb.service").read_text()
    (tmp_path / "stackweb.service").write_text(
        unit.replace("ExecStart=/usr/bin/stackweb", f"ExecStart={scratch}/usr/bin/stackweb"))
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(tmp_path / "stackweb.service")],
                            capture_output=True, text=True)
    # An unknown or malformed setting is only a warning (exit 0): none may be printed.
    assert result.returncode == 0 and result.stderr == "", result.stderr


@pytest.mark.skipif(not shutil.which("groff"), reason="groff is not installed")
def test_manual_page_renders_without_warnings(scratch):
    page = subprocess.run(["gzip", "-dc", str(scratch / "usr/share/man/man1/stackweb.1.gz")],
                          check=True, capture_output=True).stdout
    result = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z"], input=page, capture_output=True)
    assert result.returncode == 0 and result.stderr == b"", result.stderr.decode()
    text = subprocess.run(["groff", "-man", "-Tutf8"], input=page, capture_output=True, check=True).stdout.decode()
    assert "--photos" in re.sub(r".\x08", "", text)


def test_binary_from_the_scratch_root_serves_the_page_and_health(scratch, tmp_path):
    # Nothing of the build tree: the server finds everything below the scratch root.
    server = StackWebServer(binary=scratch / "usr/bin/stackweb", resources=scratch / "usr/share/stackweb",
                            arguments=["--cache", str(tmp_path / "cache"), "--state", str(tmp_path / "state.db")])
    server.start()
    try:
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(server.base_url + "/") as page:
            assert page.status == 200 and b"<canvas" in page.read()
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(server.base_url + "/healthz") as ok:
            assert ok.status == 200
        # A first start (an empty cache) reads the photos in the background.
        photos = len(list((scratch / "usr/share/stackweb/demo-photos").iterdir()))
        wait_until(lambda: server.snapshot("main")["count"], lambda count: count == photos,
                   message=f"all {photos} demo photos in the main room")
    finally:
        server.close()
