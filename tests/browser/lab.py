"""A throw-away JupyterLab server for the browser test.

Runs ``jupyter lab`` from the venv that runs pytest, on a free loopback port with a random token, a temporary
root and workspace and its own config/data/runtime/IPython folders (the venv's kernel spec and lab extensions,
ipywidgets' among them, stay discoverable through ``sys.prefix/share/jupyter``). Nothing reaches the network:
the news feed and the update check are switched off. ``stop()`` ends the server and every kernel it started,
also when the test failed half way, so no process outlives the test.
"""
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ANNOUNCEMENTS = "@jupyterlab/apputils-extension:announcements"


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def jupyter_executable():
    exe = Path(sys.prefix) / "bin" / "jupyter"
    return str(exe) if exe.exists() else None


class LabServer:
    """``LabServer(tmp).start()``; ``url(path)`` gives a tokened address; ``stop()`` is safe to call twice."""

    def __init__(self, tmp, startup_timeout=60.0):
        self.tmp = Path(tmp)
        self.root = self.tmp / "root"
        self.startup_timeout = startup_timeout
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.base = "http://127.0.0.1:%d" % self.port
        self.proc = None
        self.log_path = self.tmp / "jupyter-lab.log"
        self._log = None

    # --- environment ------------------------------------------------------------------------------
    def _env(self):
        env = dict(os.environ)
        for name, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                          ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
            path = self.tmp / sub
            path.mkdir(parents=True, exist_ok=True)
            env[name] = str(path)
        env.pop("JUPYTER_PATH", None)           # the venv's share/jupyter is found through sys.prefix
        env["JUPYTER_PLATFORM_DIRS"] = "0"
        # The kernel must find the venv's python and Graphviz's dot; the venv's bin first.
        env["PATH"] = os.pathsep.join([str(Path(sys.prefix) / "bin"), env.get("PATH", "/usr/bin:/bin")])
        return env

    def _write_page_config(self):
        labconfig = self.tmp / "config" / "labconfig"
        labconfig.mkdir(parents=True, exist_ok=True)
        (labconfig / "page_config.json").write_text(json.dumps({"disabledExtensions": {ANNOUNCEMENTS: True}}))

    def command(self):
        exe = jupyter_executable()
        head = [exe, "lab"] if exe else [sys.executable, "-m", "jupyterlab"]
        return head + [
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            "--ServerApp.port=%d" % self.port,
            "--ServerApp.port_retries=0",
            "--IdentityProvider.token=%s" % self.token,
            "--ServerApp.root_dir=%s" % self.root,
            "--ServerApp.terminals_enabled=False",
            "--LabApp.workspaces_dir=%s" % (self.tmp / "ws"),
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",    # no extension index look-ups
            "--LabApp.expose_app_in_browser=True",    # lets the test read kernel state and cell outputs
        ] + (["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else [])

    # --- life cycle ---------------------------------------------------------------------------------
    def start(self):
        self.root.mkdir(parents=True, exist_ok=True)
        (self.tmp / "ws").mkdir(parents=True, exist_ok=True)
        env = self._env()
        self._write_page_config()
        for attempt in range(3):      # the free port can be taken between choosing it and binding it
            self._log = open(self.log_path, "wb")
            self.proc = subprocess.Popen(self.command(), cwd=str(self.root), env=env, stdin=subprocess.DEVNULL,
                                         stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                self._wait_until_up()
                return self
            except RuntimeError:
                if self.proc.poll() is None or "already in use" not in self.log_tail() or attempt == 2:
                    raise
                self._log.close()
                self.port = free_port()
                self.base = "http://127.0.0.1:%d" % self.port
        return self

    def url(self, path=""):
        sep = "&" if "?" in path else "?"
        return "%s/%s%stoken=%s" % (self.base, path.lstrip("/"), sep, self.token)

    def api(self, path, method="GET", timeout=5.0):
        request = urllib.request.Request(self.base + path, method=method,
                                         headers={"Authorization": "token " + self.token})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body else None

    def _wait_until_up(self):
        deadline = time.monotonic() + self.startup_timeout
        last_error = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("jupyter lab exited with code %s before it served /api/status.\n%s" % (
                    self.proc.returncode, self.log_tail()))
            try:
                self.api("/api/status", timeout=2.0)
                return
            except (urllib.error.URLError, ConnectionError, OSError, ValueError) as e:
                last_error = e
            time.sleep(0.5)
        raise RuntimeError("jupyter lab did not answer /api/status on %s within %g s (last error: %s).\n%s" % (
            self.base, self.startup_timeout, last_error, self.log_tail()))

    def log_tail(self, lines=40):
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "--- last lines of %s ---\n%s" % (self.log_path, "\n".join(text.splitlines()[-lines:]))

    def _kernel_pids(self):
        """Kernels run in their own process groups; find ours by the connection files in our runtime dir."""
        runtime = str(self.tmp / "runtime")
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if any(part.decode("utf-8", "replace").startswith(runtime) for part in cmdline):
                pids.append(int(entry.name))
        return pids

    def stop(self):
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        try:
            if proc.poll() is None:
                try:      # polite first: the server shuts down its kernels
                    for kernel in self.api("/api/kernels") or []:
                        self.api("/api/kernels/%s" % kernel["id"], method="DELETE", timeout=10.0)
                except Exception:
                    pass
                _signal_group(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    _signal_group(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=10)
            else:
                _signal_group(proc.pid, signal.SIGKILL)   # children left behind by a dead server
        finally:
            for pid in self._kernel_pids():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if self._log is not None:
                self._log.close()


def _signal_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
