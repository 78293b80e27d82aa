"""
gassist_sdk: write G-Assist (Plugin Protocol V2) plugins in plain Python.

One file, standard library only. Its public API matches NVIDIA's ``gassist_sdk`` package, so
existing G-Assist plugins run on it unchanged::

    from gassist_sdk import Plugin

    plugin = Plugin("hello", version="1.0.0", description="Says hello")

    @plugin.command("say_hello")
    def say_hello(name: str = "World"):
        \"\"\"Greets someone.\"\"\"
        plugin.stream("Thinking...\\n")
        return f"Hello, {name}!"

    if __name__ == "__main__":
        plugin.run()

Wire protocol: a 4-byte big-endian length, then that many bytes of UTF-8 JSON-RPC 2.0. stdout
carries frames and nothing else; everything a plugin logs or prints goes to stderr.

Differences from NVIDIA's SDK, all in the plugin's favour:

* ``ping`` is answered at once, even while a command runs (a reader thread answers it), so an
  engine with a strict ping deadline never kills a plugin that is busy but healthy.
* ``print()`` and output of child processes cannot corrupt the frame stream: ``run()`` keeps the
  real stdout for frames and points file descriptor 1 and ``sys.stdout`` at stderr.
* ``plugin.log()`` writes to stderr (no log file is created next to the plugin).
"""

from __future__ import annotations

import inspect
import json
import os
import queue
import sys
import threading
import traceback
from typing import Any, Callable, Dict, Iterable, List, Optional

__all__ = [
    "Plugin",
    "command",
    "Context",
    "Message",
    "SystemInfo",
    "PluginError",
    "ProtocolError",
    "FrameTooLarge",
    "ConnectionClosed",
    "encode_frame",
    "read_frame",
    "PROTOCOL_VERSION",
    "MAX_FRAME_BYTES",
]

__version__ = "1.0.0"

PROTOCOL_VERSION = "2.0"
#: The SDKs and the engine refuse frames larger than this.
MAX_FRAME_BYTES = 10 * 1024 * 1024
_HEADER_BYTES = 4
_READ_CHUNK = 64 * 1024

# JSON-RPC 2.0 codes, plus G-Assist's own.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
PLUGIN_ERROR = -1


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------


class ProtocolError(Exception):
    """The other side broke the wire protocol (a truncated or unreadable frame)."""


class FrameTooLarge(ProtocolError):
    """A frame announced (or would need) more than MAX_FRAME_BYTES."""


class ConnectionClosed(Exception):
    """stdin ended: the engine went away."""


class PluginError(Exception):
    """Raise from a command to report a failure with a specific code (default -1, plugin error)."""

    def __init__(self, message: str, code: int = PLUGIN_ERROR, data: Any = None):
        super().__init__(message)
        self.code = code
        self.data = data


class _BindError(Exception):
    """The arguments do not fit the handler's parameters."""


# ---------------------------------------------------------------------------------------------
# Framing
# ---------------------------------------------------------------------------------------------


def _json_fallback(value: Any) -> Any:
    """What json.dumps cannot encode by itself: sets and tuples as lists, objects by their dict."""
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if hasattr(value, "__dataclass_fields__"):
        import dataclasses

        return dataclasses.asdict(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


def encode_frame(message: Any, max_bytes: int = MAX_FRAME_BYTES) -> bytes:
    """One message as a frame: 4-byte big-endian length, then UTF-8 JSON."""
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":"), default=_json_fallback).encode("utf-8")
    if len(body) > max_bytes:
        raise FrameTooLarge(f"a message of {len(body)} bytes is past the {max_bytes}-byte frame cap")
    return len(body).to_bytes(_HEADER_BYTES, "big") + body


def _read_exactly(stream: Any, n: int, eof_ok: bool) -> Optional[bytes]:
    """Reads exactly n bytes. At EOF before the first byte: None if eof_ok, else ProtocolError."""
    parts: List[bytes] = []
    got = 0
    while got < n:
        chunk = stream.read(n - got)
        if not chunk:
            if got == 0 and eof_ok:
                return None
            raise ProtocolError(f"stdin ended in the middle of a frame ({got} of {n} bytes)")
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def read_frame(stream: Any, max_bytes: int = MAX_FRAME_BYTES) -> Optional[bytes]:
    """
    Reads one frame body from a binary stream; None at a clean end of input.

    The announced length is checked against the cap before the body is read or any memory is set
    aside for it, so a hostile header such as 0xFFFFFFFF costs nothing.
    """
    header = _read_exactly(stream, _HEADER_BYTES, eof_ok=True)
    if header is None:
        return None
    length = int.from_bytes(header, "big")
    if length > max_bytes:
        raise FrameTooLarge(f"a frame announced {length} bytes, past the {max_bytes}-byte cap")
    if length == 0:
        return b""
    return _read_exactly(stream, length, eof_ok=False)


class _FdReader:
    """
    Reads a file descriptor with os.read. The reader thread must not use sys.stdin.buffer: a
    daemon thread blocked inside a buffered object makes the interpreter abort at exit.
    """

    def __init__(self, fd: int):
        self._fd = fd
        self._pending = b""

    def read(self, n: int) -> bytes:
        if self._pending:
            out, self._pending = self._pending[:n], self._pending[n:]
            return out
        data = os.read(self._fd, max(n, _READ_CHUNK) if n < _READ_CHUNK else n)
        if len(data) > n:
            data, self._pending = data[:n], data[n:]
        return data


class _FrameWriter:
    """Writes whole frames, one at a time (the reader thread answers pings concurrently)."""

    def __init__(self, out: Any):
        self._out = out
        self._lock = threading.Lock()
        self.broken = False

    def send(self, message: Dict[str, Any]) -> bool:
        frame = encode_frame(message)
        with self._lock:
            if self.broken:
                return False
            try:
                view = memoryview(frame)
                while view:
                    written = self._out.write(view)
                    view = view[written if written is not None else len(view):]
                flush = getattr(self._out, "flush", None)
                if flush:
                    flush()
            except (OSError, ValueError):
                # The engine is gone (EPIPE); the reader sees EOF next and the plugin stops.
                self.broken = True
                return False
        return True


def _claim_stdout() -> Any:
    """
    Keeps the real stdout for frames only. File descriptor 1 and sys.stdout then point at stderr,
    so print(), C libraries and child processes cannot corrupt the frame stream.
    """
    try:
        sys.stdout.flush()
    except Exception:  # noqa: BLE001 - a closed or odd stdout must not stop the plugin
        pass
    try:
        fd = os.dup(1)
        os.dup2(2, 1)
        if os.name == "nt":
            import msvcrt

            msvcrt.setmode(fd, os.O_BINARY)
        out = os.fdopen(fd, "wb", buffering=0)
    except (OSError, ValueError, AttributeError):
        out = sys.stdout.buffer
    sys.stdout = sys.stderr
    return out


# ---------------------------------------------------------------------------------------------
# Context and system info
# ---------------------------------------------------------------------------------------------


class Message(dict):
    """One chat message: a dict with "role" and "content", also readable as attributes."""

    def __init__(self, role: str = "user", content: Any = "", **extra: Any):
        super().__init__(extra)
        self["role"] = str(role)
        self["content"] = "" if content is None else content

    @property
    def role(self) -> str:
        return self["role"]

    @property
    def content(self) -> Any:
        return self["content"]

    @classmethod
    def from_value(cls, value: Any) -> "Message":
        if isinstance(value, dict):
            extra = {k: v for k, v in value.items() if k not in ("role", "content")}
            return cls(value.get("role") or "user", value.get("content"), **extra)
        return cls("user", "" if value is None else str(value))


class Context(list):
    """
    The conversation so far, oldest first: a list of Message ({role, content}) built from the
    ``context`` parameter of ``execute``. ``context.messages`` is the same list.
    """

    def __init__(self, messages: Iterable[Any] = ()):
        super().__init__(Message.from_value(m) for m in messages)

    @classmethod
    def from_list(cls, data: Any) -> "Context":
        return cls(data) if isinstance(data, list) else cls()

    @property
    def messages(self) -> "Context":
        return self

    def last_user_message(self) -> Optional[str]:
        """The text of the most recent message from the user, if any."""
        for m in reversed(self):
            if m.role == "user":
                return m.content if isinstance(m.content, str) else json.dumps(m.content)
        return None

    def to_list(self) -> List[Dict[str, Any]]:
        return [dict(m) for m in self]


class SystemInfo(str):
    """The ``system_info`` string of ``execute`` (a description of the user's machine)."""

    @classmethod
    def from_string(cls, value: Any) -> "SystemInfo":
        if value is None:
            return cls("")
        return cls(value if isinstance(value, str) else json.dumps(value))

    @property
    def raw(self) -> str:
        return str(self)


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------


class _Command:
    __slots__ = ("name", "handler", "description", "signature")

    def __init__(self, name: str, handler: Callable[..., Any], description: str):
        self.name = name
        self.handler = handler
        self.description = description
        self.signature = inspect.signature(handler)


def _describe(func: Callable[..., Any], description: Optional[str]) -> str:
    if description:
        return str(description)
    return inspect.cleandoc(func.__doc__) if func.__doc__ else ""


def command(name: Any = None, description: Optional[str] = None) -> Any:
    """
    Marks a function as a command without naming the plugin. ``plugin.run()`` registers every
    marked function of the ``__main__`` module; ``plugin.include(...)`` registers others.
    Works bare (``@command``) or with arguments (``@command("name", description="...")``).
    """
    if callable(name):
        return command()(name)

    def mark(func: Callable[..., Any]) -> Callable[..., Any]:
        func._gassist_command = True  # type: ignore[attr-defined]
        func._gassist_name = name or func.__name__  # type: ignore[attr-defined]
        func._gassist_description = _describe(func, description)  # type: ignore[attr-defined]
        return func

    return mark


# ---------------------------------------------------------------------------------------------
# The plugin
# ---------------------------------------------------------------------------------------------


class Plugin:
    """A G-Assist plugin: register commands with ``@plugin.command``, then call ``run()``."""

    def __init__(self, name: str, version: str = "1.0.0", description: str = ""):
        self.name = name
        self.version = version
        self.description = description
        self._commands: Dict[str, _Command] = {}
        self._request_id: Optional[int] = None
        self._keep_session = False
        self._writer: Optional[_FrameWriter] = None
        self._log_lock = threading.Lock()

    # -- registration -------------------------------------------------------------------------

    def command(self, name: Any = None, description: Optional[str] = None) -> Any:
        """
        Registers a command. The name defaults to the function's name, the description to its
        docstring. A command named ``on_input`` handles passthrough input.
        """
        if callable(name):
            func = name
            self._register(func.__name__, func, _describe(func, None))
            return func

        def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
            self._register(name or func.__name__, func, _describe(func, description))
            return func

        return decorator

    def include(self, *items: Any) -> None:
        """Registers functions marked with the module-level ``@command`` (functions or modules)."""
        for item in items:
            candidates = vars(item).values() if inspect.ismodule(item) else [item]
            for func in candidates:
                if callable(func) and getattr(func, "_gassist_command", False):
                    self._register(func._gassist_name, func, func._gassist_description)

    def _register(self, name: str, func: Callable[..., Any], description: str) -> None:
        if not isinstance(name, str) or not name:
            raise ValueError("a command needs a non-empty name")
        self._commands[name] = _Command(name, func, description)

    # -- what a command calls -----------------------------------------------------------------

    def stream(self, data: Any) -> None:
        """Sends part of the result now; the engine shows it while the command keeps running."""
        request_id = self._request_id
        if request_id is None or self._writer is None:
            self.log("stream() called outside a running command; ignored", "warning")
            return
        self._notify("stream", {"request_id": request_id, "data": data})

    def set_keep_session(self, keep: bool) -> None:
        """Keep (True) or end (False) the passthrough session after this turn. Reset every turn."""
        self._keep_session = bool(keep)

    def log(self, message: Any, level: Any = "info") -> None:
        """Writes a line to stderr, never to stdout (stdout carries protocol frames only)."""
        level_name = str(getattr(level, "value", level)).upper()
        line = f"[{self.name}] {level_name}: {message}\n"
        with self._log_lock:
            try:
                sys.stderr.write(line)
                sys.stderr.flush()
            except (OSError, ValueError):
                pass

    # -- the loop -----------------------------------------------------------------------------

    def run(self) -> None:
        """
        Serves the engine until ``shutdown`` or the end of stdin, then returns. A fatal protocol
        error (an oversize or truncated frame) ends the plugin with a non-zero exit status.
        """
        main = sys.modules.get("__main__")
        if main is not None:
            for func in list(vars(main).values()):
                if callable(func) and getattr(func, "_gassist_command", False) and func._gassist_name not in self._commands:
                    self._register(func._gassist_name, func, func._gassist_description)
        self._writer = _FrameWriter(_claim_stdout())
        inbox: "queue.Queue[tuple]" = queue.Queue()
        reader = threading.Thread(target=self._read_loop, args=(inbox,), name="gassist-reader", daemon=True)
        reader.start()
        exit_code = 0
        while True:
            kind, value = inbox.get()
            if kind == "stop":
                exit_code = value
                break
            self._dispatch(value)
        try:
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        if exit_code != 0:
            raise SystemExit(exit_code)

    def _read_loop(self, inbox: "queue.Queue[tuple]") -> None:
        """Reads frames; answers ping at once; queues the rest for the main thread."""
        source = _FdReader(0)
        try:
            while True:
                body = read_frame(source)
                if body is None:
                    inbox.put(("stop", 0))
                    return
                try:
                    message = json.loads(body.decode("utf-8"))
                except (UnicodeDecodeError, ValueError) as exc:
                    self.log(f"ignored a frame that is not JSON: {exc}", "error")
                    self._respond_error(None, PARSE_ERROR, f"Parse error: {exc}")
                    continue
                if isinstance(message, dict):
                    method = message.get("method")
                    if method == "ping" and message.get("id") is not None:
                        params = message.get("params") if isinstance(message.get("params"), dict) else {}
                        self._respond(message["id"], {"timestamp": params.get("timestamp")})
                        continue
                    if method == "shutdown":
                        inbox.put(("stop", 0))
                        return
                inbox.put(("message", message))
        except FrameTooLarge as exc:
            self.log(f"stopping: {exc}", "error")
            inbox.put(("stop", 2))
        except ProtocolError as exc:
            self.log(f"stopping: {exc}", "error")
            inbox.put(("stop", 1))
        except OSError as exc:
            self.log(f"stopping: cannot read stdin: {exc}", "error")
            inbox.put(("stop", 1))

    def _dispatch(self, message: Any) -> None:
        if not isinstance(message, dict):
            self._respond_error(None, INVALID_REQUEST, "Invalid Request: expected a JSON object")
            return
        method = message.get("method")
        request_id = message.get("id")
        if not isinstance(method, str):
            # A response to nothing we asked, or garbage: the engine never expects an answer.
            self.log("ignored a message without a method", "warning")
            return
        params = message.get("params")
        if params is None:
            params = {}
        handlers = {"initialize": self._on_initialize, "execute": self._on_execute, "input": self._on_input}
        handler = handlers.get(method)
        if handler is None:
            if request_id is not None:
                self._respond_error(request_id, METHOD_NOT_FOUND, f"Unknown method: {method}")
            return
        if request_id is None:
            self.log(f'ignored "{method}" sent as a notification (it needs an id)', "warning")
            return
        if not isinstance(params, dict):
            self._respond_error(request_id, INVALID_PARAMS, f"Invalid params for {method}: expected an object")
            return
        handler(request_id, params)

    def _on_initialize(self, request_id: Any, _params: Dict[str, Any]) -> None:
        commands = [{"name": c.name, "description": c.description} for c in self._commands.values()]
        self._respond(
            request_id,
            {
                "name": self.name,
                "version": self.version,
                "description": self.description,
                "protocol_version": PROTOCOL_VERSION,
                "commands": commands,
            },
        )

    def _on_execute(self, request_id: Any, params: Dict[str, Any]) -> None:
        function = params.get("function")
        cmd = self._commands.get(function) if isinstance(function, str) else None
        if cmd is None:
            # NVIDIA's Python SDK answers an unknown function with an error response.
            self._respond_error(request_id, METHOD_NOT_FOUND, f"Unknown command: {function}")
            return
        arguments = params.get("arguments")
        self._run_turn(
            request_id,
            cmd,
            arguments if isinstance(arguments, dict) else {},
            Context.from_list(params.get("context")),
            SystemInfo.from_string(params.get("system_info")),
            for_input=False,
        )

    def _on_input(self, request_id: Any, params: Dict[str, Any]) -> None:
        content = params.get("content")
        text = "" if content is None else content if isinstance(content, str) else json.dumps(content)
        self._respond(request_id, {"acknowledged": True})
        cmd = self._commands.get("on_input")
        if cmd is None:
            self._notify("complete", {"request_id": request_id, "success": True, "data": f"Received: {text}", "keep_session": False})
            return
        self._run_turn(request_id, cmd, {"content": text}, Context(), SystemInfo(""), for_input=True)

    def _run_turn(
        self,
        request_id: Any,
        cmd: _Command,
        arguments: Dict[str, Any],
        context: Context,
        system_info: SystemInfo,
        for_input: bool,
    ) -> None:
        """Runs one command: streams go out as it runs, then exactly one complete or error."""
        self._request_id = request_id
        # keep_session is decided anew on every turn.
        self._keep_session = False
        try:
            kwargs = self._bind(cmd, arguments, context, system_info, for_input)
            result = cmd.handler(**kwargs)
            if inspect.iscoroutine(result):
                # An `async def` command runs to completion on its own event loop.
                import asyncio

                result = asyncio.run(result)
        except _BindError as exc:
            self._notify_error(request_id, INVALID_PARAMS, str(exc))
        except PluginError as exc:
            self._notify_error(request_id, exc.code, str(exc), exc.data)
        except Exception as exc:  # noqa: BLE001 - any failure of a command is reported, not fatal
            self.log(f"command {cmd.name} failed:\n{traceback.format_exc()}", "error")
            self._notify_error(request_id, PLUGIN_ERROR, str(exc) or type(exc).__name__)
        else:
            data = "" if result is None else result
            params = {"request_id": request_id, "success": True, "data": data, "keep_session": self._keep_session}
            try:
                self._notify("complete", params)
            except FrameTooLarge as exc:
                self._notify_error(request_id, PLUGIN_ERROR, f"the result of {cmd.name} is too large to send: {exc}")
            except (TypeError, ValueError) as exc:
                self._notify_error(request_id, PLUGIN_ERROR, f"the result of {cmd.name} cannot be sent as JSON: {exc}")
        finally:
            self._request_id = None

    @staticmethod
    def _bind(
        cmd: _Command,
        arguments: Dict[str, Any],
        context: Context,
        system_info: SystemInfo,
        for_input: bool,
    ) -> Dict[str, Any]:
        """
        Matches arguments to the handler's parameters by name. ``context`` and ``system_info``
        are always the engine's (never an argument of the same name, which a model could forge).
        """
        kwargs: Dict[str, Any] = {}
        missing: List[str] = []
        var_keyword = False
        for p in cmd.signature.parameters.values():
            if p.kind is inspect.Parameter.VAR_KEYWORD:
                var_keyword = True
            elif p.kind is inspect.Parameter.VAR_POSITIONAL:
                continue
            elif p.name == "context":
                kwargs["context"] = context
            elif p.name == "system_info":
                kwargs["system_info"] = system_info
            elif p.name in arguments:
                kwargs[p.name] = arguments[p.name]
            elif p.default is inspect.Parameter.empty:
                missing.append(p.name)
        if var_keyword:
            for key, value in arguments.items():
                if key not in kwargs and key not in ("context", "system_info"):
                    kwargs[key] = value
        if for_input and len(missing) == 1 and "content" in arguments:
            # on_input(text): a single parameter of another name still gets the user's text.
            kwargs[missing.pop()] = arguments["content"]
        if missing:
            raise _BindError(f"{cmd.name}: missing required argument{'s' if len(missing) > 1 else ''}: {', '.join(missing)}")
        return kwargs

    # -- sending ------------------------------------------------------------------------------

    def _send(self, message: Dict[str, Any]) -> None:
        if self._writer is not None:
            self._writer.send(message)

    def _respond(self, request_id: Any, result: Any) -> None:
        self._send({"jsonrpc": "2.0", "id": request_id, "result": result})

    def _respond_error(self, request_id: Any, code: int, message: str) -> None:
        self._send({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}})

    def _notify(self, method: str, params: Dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def _notify_error(self, request_id: Any, code: int, message: str, data: Any = None) -> None:
        params: Dict[str, Any] = {"request_id": request_id, "code": code, "message": message}
        if data is not None:
            params["data"] = data
        try:
            self._notify("error", params)
        except (FrameTooLarge, TypeError, ValueError):
            params.pop("data", None)
            self._notify("error", params)
