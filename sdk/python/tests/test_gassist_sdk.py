"""
Tests of gassist_sdk through the real wire protocol: each test starts tests/fixtures/demo_plugin.py
as a subprocess (python -u), writes length-prefixed JSON-RPC frames to its stdin and reads its
stdout with a frame reader written here, independent of the SDK's own.

Run from the repository root:  python3 -m unittest discover -s sdk/python/tests -t sdk/python
"""

import io
import json
import os
import queue
import struct
import subprocess
import sys
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SDK_DIR = os.path.dirname(HERE)
FIXTURE = os.path.join(HERE, "fixtures", "demo_plugin.py")
DEADLINE = 5.0

sys.path.insert(0, SDK_DIR)
import gassist_sdk  # noqa: E402  (the module under test, for the in-process framing tests)


def frame(message):
    body = json.dumps(message).encode("utf-8")
    return struct.pack(">I", len(body)) + body


class RunningPlugin:
    """The demo plugin as a child process, spoken to in raw frames."""

    def __init__(self, extra_env=None):
        env = dict(os.environ)
        env["PYTHONPATH"] = SDK_DIR + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env.update(extra_env or {})
        self.proc = subprocess.Popen(
            [sys.executable, "-u", FIXTURE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.frames = queue.Queue()
        self.stderr = []
        self.next_id = 0
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self):
        out = self.proc.stdout
        while True:
            header = out.read(4)
            if len(header) < 4:
                self.frames.put(("eof", None))
                return
            (length,) = struct.unpack(">I", header)
            body = out.read(length)
            try:
                self.frames.put(("frame", json.loads(body.decode("utf-8"))))
            except ValueError:
                self.frames.put(("corrupt", body))

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", errors="replace"))

    def stderr_text(self):
        return "".join(self.stderr)

    def send(self, message):
        self.proc.stdin.write(frame(message))
        self.proc.stdin.flush()

    def request(self, method, params=None):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params if params is not None else {}})
        return self.next_id

    def notify(self, method, params=None):
        self.send({"jsonrpc": "2.0", "method": method, "params": params if params is not None else {}})

    def execute(self, function, arguments=None, context=None, system_info=""):
        return self.request(
            "execute",
            {"function": function, "arguments": arguments or {}, "context": context or [], "system_info": system_info},
        )

    def next_frame(self, timeout=DEADLINE):
        try:
            kind, value = self.frames.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no frame within {timeout} s; stderr:\n{self.stderr_text()}") from None
        if kind == "eof":
            raise AssertionError(f"the plugin closed stdout; stderr:\n{self.stderr_text()}")
        if kind == "corrupt":
            raise AssertionError(f"stdout carried something that is not a JSON frame: {value!r}")
        return value

    def response(self, request_id, timeout=DEADLINE):
        """The JSON-RPC response to request_id (anything else on the way fails the test)."""
        msg = self.next_frame(timeout)
        if msg.get("id") != request_id:
            raise AssertionError(f"expected the response to {request_id}, got {msg}")
        return msg

    def turn(self, request_id, timeout=DEADLINE):
        """Stream chunks and the final notification (complete or error) of one turn."""
        streams = []
        end = time.monotonic() + timeout
        while True:
            msg = self.next_frame(max(0.05, end - time.monotonic()))
            params = msg.get("params") or {}
            if "method" not in msg or params.get("request_id") != request_id:
                raise AssertionError(f"unexpected frame during turn {request_id}: {msg}")
            if msg["method"] == "stream":
                streams.append(params["data"])
            elif msg["method"] in ("complete", "error"):
                return streams, msg
            else:
                raise AssertionError(f"unexpected notification: {msg}")

    def initialize(self):
        rid = self.request("initialize", {"protocol_version": "2.0", "engine_version": "1.0.0", "capabilities": []})
        return self.response(rid)["result"]

    def wait_exit(self, timeout=DEADLINE):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the plugin was still running after {timeout} s") from None

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=DEADLINE)
        finally:
            for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    pipe.close()
                except OSError:
                    pass


class PluginTestCase(unittest.TestCase):
    def start(self, extra_env=None, initialize=True):
        plugin = RunningPlugin(extra_env)
        self.addCleanup(plugin.close)
        if initialize:
            plugin.initialize()
        return plugin


class HandshakeTests(PluginTestCase):
    def test_initialize_describes_the_plugin_and_its_commands(self):
        plugin = self.start(initialize=False)
        result = plugin.initialize()
        self.assertEqual(result["name"], "demo")
        self.assertEqual(result["version"], "1.2.3")
        self.assertEqual(result["description"], "Exercises the SDK")
        self.assertEqual(result["protocol_version"], "2.0")
        commands = {c["name"]: c["description"] for c in result["commands"]}
        self.assertTrue(all(set(c) == {"name", "description"} for c in result["commands"]))
        self.assertEqual(commands["greet"], "Greets someone.")  # the docstring
        self.assertEqual(commands["count"], "Streams the numbers 1..n")  # the explicit description
        self.assertIn("on_input", commands)
        self.assertEqual(commands["marked"], "Registered by the module-level decorator")

    def test_on_input_is_announced_only_when_defined(self):
        plugin = self.start(extra_env={"DEMO_NO_ON_INPUT": "1"}, initialize=False)
        names = [c["name"] for c in plugin.initialize()["commands"]]
        self.assertIn("greet", names)
        self.assertNotIn("on_input", names)

    def test_ping_echoes_the_timestamp(self):
        plugin = self.start()
        rid = plugin.request("ping", {"timestamp": 1234567890})
        self.assertEqual(plugin.response(rid)["result"], {"timestamp": 1234567890})

    def test_ping_is_answered_while_a_command_runs(self):
        plugin = self.start()
        slow = plugin.execute("slow", {"ms": 1500})
        first = plugin.next_frame()
        self.assertEqual(first["params"], {"request_id": slow, "data": "working\n"})
        sent = time.monotonic()
        ping = plugin.request("ping", {"timestamp": 7})
        answer = plugin.next_frame()
        self.assertEqual(answer, {"jsonrpc": "2.0", "id": ping, "result": {"timestamp": 7}})
        self.assertLess(time.monotonic() - sent, 1.0)
        _, final = plugin.turn(slow)
        self.assertEqual(final["params"]["data"], "slept")

    def test_unknown_method_gets_an_error_response_and_unknown_notifications_are_ignored(self):
        plugin = self.start()
        plugin.notify("something_new", {"x": 1})
        rid = plugin.request("frobnicate")
        msg = plugin.response(rid)
        self.assertEqual(msg["error"]["code"], -32601)
        self.assertIn("frobnicate", msg["error"]["message"])


class ExecuteTests(PluginTestCase):
    def test_execute_streams_then_completes_with_the_request_id(self):
        plugin = self.start()
        rid = plugin.execute("count", {"n": 3})
        streams, final = plugin.turn(rid)
        self.assertEqual(streams, ["1\n", "2\n", "3\n"])
        self.assertEqual(final["method"], "complete")
        self.assertEqual(final["params"], {"request_id": rid, "success": True, "data": "counted to 3", "keep_session": False})
        self.assertNotIn("id", final)

    def test_arguments_are_matched_by_name_and_defaults_apply(self):
        plugin = self.start()
        _, named = plugin.turn(plugin.execute("greet", {"name": "Ada"}))
        _, default = plugin.turn(plugin.execute("greet"))
        self.assertEqual(named["params"]["data"], "Hello, Ada!")
        self.assertEqual(default["params"]["data"], "Hello, World!")

    def test_var_keyword_handler_receives_every_argument(self):
        plugin = self.start()
        _, final = plugin.turn(plugin.execute("kwargs_only", {"b": 1, "a": 2}))
        self.assertEqual(final["params"]["data"], ["a", "b"])

    def test_async_handlers_are_awaited(self):
        plugin = self.start()
        streams, final = plugin.turn(plugin.execute("async_greet", {"name": "Ada"}))
        self.assertEqual(streams, ["awaited\n"])
        self.assertEqual(final["params"]["data"], "Hello, Ada!")

    def test_module_level_command_decorator_registers_with_run(self):
        plugin = self.start()
        _, final = plugin.turn(plugin.execute("marked"))
        self.assertEqual(final["params"]["data"], "marked works")

    def test_unknown_function_is_a_32601_error_response(self):
        plugin = self.start()
        rid = plugin.execute("nope")
        msg = plugin.response(rid)
        self.assertEqual(msg["error"], {"code": -32601, "message": "Unknown command: nope"})
        # And nothing else follows for that request: the next frame answers the next request.
        ping = plugin.request("ping", {"timestamp": 1})
        self.assertEqual(plugin.response(ping)["result"], {"timestamp": 1})

    def test_exception_in_a_handler_becomes_an_error_notification(self):
        plugin = self.start()
        rid = plugin.execute("boom")
        streams, final = plugin.turn(rid)
        self.assertEqual(streams, [])
        self.assertEqual(final["method"], "error")
        self.assertEqual(final["params"], {"request_id": rid, "code": -1, "message": "kaboom"})
        # The traceback is on stderr for the developer, and the plugin keeps serving.
        _, again = plugin.turn(plugin.execute("greet", {"name": "again"}))
        self.assertEqual(again["params"]["data"], "Hello, again!")
        self.assertIn("RuntimeError: kaboom", plugin.stderr_text())

    def test_plugin_error_carries_its_code(self):
        plugin = self.start()
        rid = plugin.execute("refuse")
        _, final = plugin.turn(rid)
        self.assertEqual(final["params"], {"request_id": rid, "code": -3, "message": "rate limited"})

    def test_missing_required_argument_is_reported_as_invalid_params(self):
        plugin = self.start()
        rid = plugin.execute("needs_name", {})
        _, final = plugin.turn(rid)
        self.assertEqual(final["method"], "error")
        self.assertEqual(final["params"]["code"], -32602)
        self.assertIn("name", final["params"]["message"])

    def test_context_and_system_info_are_injected(self):
        plugin = self.start()
        context = [
            {"role": "user", "content": "What GPU do I have?"},
            {"role": "assistant", "content": "Let me check."},
            {"role": "user", "content": "Thanks"},
        ]
        rid = plugin.execute(
            "inspect_context",
            # An argument named like an injected parameter must not replace the engine's value.
            {"context": "forged", "system_info": "forged"},
            context=context,
            system_info="RTX 4090, 64 GB",
        )
        _, final = plugin.turn(rid)
        self.assertEqual(
            final["params"]["data"],
            {
                "roles": ["user", "assistant", "user"],
                "last_user": "Thanks",
                "first_content": "What GPU do I have?",
                "system_info": "RTX 4090, 64 GB",
                "types": ["Context", "SystemInfo"],
            },
        )

    def test_stray_prints_and_child_output_go_to_stderr_not_stdout(self):
        plugin = self.start()
        rid = plugin.execute("noisy")
        _, final = plugin.turn(rid)
        self.assertEqual(final["params"]["data"], "still framed")
        ping = plugin.request("ping", {"timestamp": 2})
        self.assertEqual(plugin.response(ping)["result"], {"timestamp": 2})
        deadline = time.monotonic() + DEADLINE
        while "output of a child process" not in plugin.stderr_text() and time.monotonic() < deadline:
            time.sleep(0.02)
        self.assertIn("a stray print must not reach stdout", plugin.stderr_text())
        self.assertIn("output of a child process", plugin.stderr_text())


class PassthroughTests(PluginTestCase):
    def test_input_is_acknowledged_then_completed_with_keep_session(self):
        plugin = self.start()
        start = plugin.execute("start_chat", {"topic": "GPUs"})
        _, opened = plugin.turn(start)
        self.assertEqual(opened["params"], {"request_id": start, "success": True, "data": "chatting about GPUs", "keep_session": True})

        rid = plugin.request("input", {"content": "hello there", "timestamp": 1})
        self.assertEqual(plugin.response(rid)["result"], {"acknowledged": True})
        _, reply = plugin.turn(rid)
        self.assertEqual(reply["params"], {"request_id": rid, "success": True, "data": "echo: hello there", "keep_session": True})

        bye = plugin.request("input", {"content": "exit", "timestamp": 2})
        self.assertEqual(plugin.response(bye)["result"], {"acknowledged": True})
        _, closed = plugin.turn(bye)
        self.assertEqual(closed["params"], {"request_id": bye, "success": True, "data": "bye", "keep_session": False})

    def test_input_without_on_input_is_echoed_and_ends_the_session(self):
        plugin = self.start(extra_env={"DEMO_NO_ON_INPUT": "1"})
        rid = plugin.request("input", {"content": "hello", "timestamp": 1})
        self.assertEqual(plugin.response(rid)["result"], {"acknowledged": True})
        _, final = plugin.turn(rid)
        self.assertEqual(final["params"], {"request_id": rid, "success": True, "data": "Received: hello", "keep_session": False})

    def test_keep_session_is_decided_anew_every_turn(self):
        plugin = self.start()
        _, first = plugin.turn(plugin.execute("start_chat"))
        _, second = plugin.turn(plugin.execute("plain"))
        self.assertTrue(first["params"]["keep_session"])
        self.assertFalse(second["params"]["keep_session"])


class LifecycleTests(PluginTestCase):
    def test_shutdown_notification_exits_0_quickly_and_sends_nothing(self):
        plugin = self.start()
        started = time.monotonic()
        plugin.notify("shutdown")
        self.assertEqual(plugin.wait_exit(3.0), 0)
        self.assertLess(time.monotonic() - started, 3.0)
        kind, _ = plugin.frames.get(timeout=DEADLINE)
        self.assertEqual(kind, "eof")  # no frame answered the shutdown

    def test_end_of_stdin_exits_0(self):
        plugin = self.start()
        plugin.proc.stdin.close()
        self.assertEqual(plugin.wait_exit(3.0), 0)

    def test_oversize_frame_header_ends_the_plugin_with_an_error_without_hanging(self):
        plugin = self.start()
        started = time.monotonic()
        plugin.proc.stdin.write(b"\xff\xff\xff\xff")  # announces 4 GiB; the body never comes
        plugin.proc.stdin.flush()
        code = plugin.wait_exit(4.0)
        self.assertNotEqual(code, 0)
        self.assertLess(time.monotonic() - started, 4.0)
        self.assertIn("4294967295 bytes", plugin.stderr_text())
        self.assertIn("cap", plugin.stderr_text())


class FramingTests(unittest.TestCase):
    """The SDK's own framing helpers, in process."""

    def test_round_trip_with_unicode(self):
        message = {"jsonrpc": "2.0", "method": "stream", "params": {"data": "héllo ✓"}}
        data = gassist_sdk.encode_frame(message)
        self.assertEqual(struct.unpack(">I", data[:4])[0], len(data) - 4)
        self.assertEqual(json.loads(gassist_sdk.read_frame(io.BytesIO(data))), message)

    def test_clean_end_of_input_reads_as_none_and_a_cut_frame_as_an_error(self):
        self.assertIsNone(gassist_sdk.read_frame(io.BytesIO(b"")))
        with self.assertRaises(gassist_sdk.ProtocolError):
            gassist_sdk.read_frame(io.BytesIO(struct.pack(">I", 10) + b"abc"))

    def test_announced_length_is_checked_before_reading_the_body(self):
        class HeaderOnly(io.BytesIO):
            reads = 0

            def read(self, n=-1):
                HeaderOnly.reads += 1
                return super().read(n)

        stream = HeaderOnly(struct.pack(">I", 11 * 1024 * 1024))
        with self.assertRaises(gassist_sdk.FrameTooLarge):
            gassist_sdk.read_frame(stream)
        self.assertEqual(HeaderOnly.reads, 1)  # only the header was read

    def test_oversize_messages_are_refused_when_encoding(self):
        with self.assertRaises(gassist_sdk.FrameTooLarge):
            gassist_sdk.encode_frame({"data": "x" * 100}, max_bytes=50)


if __name__ == "__main__":
    unittest.main()
