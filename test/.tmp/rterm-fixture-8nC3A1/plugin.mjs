// An rterm.plugin.v1 plugin: one process per call. Modes (env FIXTURE_MODE): wrong-version,
// extra-capability, padded-capability, duplicate-capability, empty-capability, no-capabilities,
// exit-before-handshake, hang-handshake, junk, no-response, error-response, slow, wrong-request-id,
// bad-manifest, other-id.
const mode = process.env.FIXTURE_MODE ?? '';
const id = process.env.PLUGIN_ID ?? 'rterm-echo';
const caps = (process.env.CAPS ?? 'fs.read').split(',').filter(Boolean);
const say = (v) => process.stdout.write(`${JSON.stringify(v)}\n`);

if (mode === 'exit-before-handshake') {
  process.stderr.write('Traceback (most recent call last):\n  File "plugin.py", line 3\nValueError: unsupported protocol\n');
  process.exit(1);
}

let capabilities = caps;
if (mode === 'extra-capability') capabilities = [...caps, 'net.connect'];
if (mode === 'padded-capability') capabilities = caps.map((c) => ` ${c}`);
if (mode === 'duplicate-capability') capabilities = [...caps, caps[0]];
if (mode === 'empty-capability') capabilities = [...caps, ''];

let pending = '';
let step = 0;
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let nl;
  while ((nl = pending.indexOf('\n')) !== -1) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    if (line.trim()) onMessage(JSON.parse(line));
  }
});
process.stdin.on('end', () => process.exit(0));

function onMessage(msg) {
  step++;
  if (msg.type === 'handshake') {
    if (mode === 'hang-handshake') return;
    if (mode === 'junk') return process.stdout.write('not json at all\n');
    if (mode === 'bad-manifest') return say({ type: 'handshake', manifest: { plugin_id: id } });
    const manifest = {
      plugin_id: mode === 'other-id' ? 'someone-else' : id,
      plugin_version: '1.0.0',
      protocol_version: mode === 'wrong-version' ? 'rterm.plugin.v0' : msg.protocol_version,
      exposed_tools: ['echo', 'upper'],
    };
    if (mode !== 'no-capabilities') manifest.capabilities = capabilities;
    return say({ type: 'handshake', manifest });
  }
  if (msg.type === 'request') {
    if (mode === 'no-response') return process.exit(0);
    if (mode === 'slow') return setTimeout(() => respond(msg), 60_000);
    return respond(msg);
  }
}

function respond(msg) {
  const request_id = mode === 'wrong-request-id' ? 'nope' : msg.request_id;
  if (mode === 'error-response') return say({ type: 'response', request_id, status: 'error', error: { code: 'E_INPUT', message: 'bad input' } });
  const text = String(msg.input?.text ?? '');
  const output = msg.tool_name === 'upper' ? text.toUpperCase() : text;
  say({ type: 'response', request_id, status: 'ok', output });
}
