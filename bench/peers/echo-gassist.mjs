// The least a G-Assist V2 plugin can be: initialize, ping, execute echo completed by a
// `complete` notification, shutdown. Length-prefixed frames, no SDK, no queue.
let buf = Buffer.alloc(0);
function send(msg) {
  const body = Buffer.from(JSON.stringify(msg));
  const out = Buffer.allocUnsafe(4 + body.length);
  out.writeUInt32BE(body.length, 0);
  body.copy(out, 4);
  process.stdout.write(out);
}
process.stdin.on('data', (chunk) => {
  buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
  while (buf.length >= 4) {
    const len = buf.readUInt32BE(0);
    if (buf.length < 4 + len) break;
    const msg = JSON.parse(buf.toString('utf8', 4, 4 + len));
    buf = buf.subarray(4 + len);
    if (msg.method === 'execute')
      send({
        jsonrpc: '2.0',
        method: 'complete',
        params: { request_id: msg.id, success: true, data: msg.params.arguments, keep_session: false },
      });
    else if (msg.method === 'initialize')
      send({
        jsonrpc: '2.0',
        id: msg.id,
        result: { name: 'echo', version: '1', protocol_version: '2.0', commands: [{ name: 'echo' }] },
      });
    else if (msg.method === 'ping') send({ jsonrpc: '2.0', id: msg.id, result: {} });
    else if (msg.method === 'shutdown') process.exit(0);
  }
});
process.stdin.on('end', () => process.exit(0));
