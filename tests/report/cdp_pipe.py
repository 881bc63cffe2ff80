"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe``.

Chromium reads JSON commands from fd 3 and writes replies and events to fd 4, each
message ended by a NUL byte. That needs nothing outside the standard library (no
websocket client), which keeps the browser test dependency-free.

Example::

    with Browser.launch() as b:
        page = b.open("file:///tmp/report.html", width=1280, height=900)
        page.eval("document.title")
        png = page.screenshot()
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time

SEARCH = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    for name in SEARCH:
        path = shutil.which(name)
        if path:
            return path
    return None


class CDPError(RuntimeError):
    pass


def _high(fds: tuple[int, int]) -> tuple[int, int]:
    """The pipe's fds moved above 4, so that dup2 onto 3 and 4 cannot clobber them."""
    import fcntl
    out = []
    for fd in fds:
        out.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10))
        os.close(fd)
    return out[0], out[1]


class Browser:
    def __init__(self, proc, to_chrome: int, from_chrome: int, profile: str):
        self.proc, self.to_chrome, self.from_chrome = proc, to_chrome, from_chrome
        self.profile = profile
        self._next = 0
        self._buf = b""
        self.events: list[dict] = []

    @classmethod
    def launch(cls, path: str | None = None, timeout: float = 30.0) -> Browser:
        path = path or find_chromium()
        if path is None:
            raise CDPError("no chromium on PATH")
        profile = tempfile.mkdtemp(prefix="dynamo-cdp-")
        cmd_r, cmd_w = _high(os.pipe())     # we write commands, chromium reads fd 3
        ev_r, ev_w = _high(os.pipe())       # chromium writes fd 4, we read

        def child_fds():                    # runs in the child before fds are closed
            os.dup2(cmd_r, 3)
            os.dup2(ev_w, 4)

        args = [path, "--headless=new", "--remote-debugging-pipe", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions",
                "--hide-scrollbars", "--mute-audio", f"--user-data-dir={profile}",
                "about:blank"]
        proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=child_fds,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(ev_w)
        b = cls(proc, cmd_w, ev_r, profile)
        b.timeout = timeout
        b.call("Browser.getVersion")
        return b

    # ----------------------------------------------------------------- messages
    def _read_message(self, deadline: float) -> dict:
        import select
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPError("timed out waiting for chromium")
            ready, _, _ = select.select([self.from_chrome], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise CDPError(f"chromium closed the pipe (exit code {self.proc.poll()})")
            self._buf += chunk
        msg, _, self._buf = self._buf.partition(b"\0")
        return json.loads(msg)

    def call(self, method: str, session: str | None = None, **params) -> dict:
        self._next += 1
        mid = self._next
        msg = {"id": mid, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == mid:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method: str, session: str | None = None) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            for i, ev in enumerate(self.events):
                if ev.get("method") == method and (session is None or
                                                   ev.get("sessionId") == session):
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def open(self, url: str, width: int = 1280, height: int = 900) -> Page:
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        session = self.call("Target.attachToTarget", targetId=target,
                            flatten=True)["sessionId"]
        page = Page(self, session)
        page.call("Page.enable")
        page.call("Runtime.enable")
        page.resize(width, height)
        page.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired", session)
        return page

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (CDPError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.to_chrome, self.from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Page:
    def __init__(self, browser: Browser, session: str):
        self.browser, self.session = browser, session

    def call(self, method: str, **params) -> dict:
        return self.browser.call(method, self.session, **params)

    def resize(self, width: int, height: int) -> None:
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)

    def eval(self, expression: str):
        """The value of a JavaScript expression (JSON-serialisable), errors raised."""
        res = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                        awaitPromise=True)
        if "exceptionDetails" in res:
            raise CDPError(f"JavaScript error: {res['exceptionDetails']}")
        return res["result"].get("value")

    def mouse_move(self, x: float, y: float) -> None:
        self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)

    def click(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def screenshot(self, full_page: bool = False, clip: dict | None = None) -> bytes:
        """A PNG of the viewport, the whole page, or ``clip`` (x, y, width, height in
        CSS pixels of the viewport)."""
        params: dict = {"format": "png"}
        if clip is not None:
            params["clip"] = {**clip, "scale": 1}
        elif full_page:
            params["captureBeyondViewport"] = True
            w, h = self.eval("[document.documentElement.scrollWidth,"
                             "document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": w, "height": h, "scale": 1}
        return base64.b64decode(self.call("Page.captureScreenshot", **params)["data"])
