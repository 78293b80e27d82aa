// The least a JSON-RPC plugin can be: answer every request with its params. NDJSON, or
// length-prefixed with FRAMING=length-prefixed.
const lp = process.env.FRAMING === 'length-prefixed';
function send(msg) {
  const json = JSON.stringify(msg);
  if (!lp) return process.stdout.write(`${json}\n`);
  const body = Buffer.from(json);
  const out = Buffer.allocUnsafe(4 + body.length);
  out.writeUInt32BE(body.length, 0);
  body.copy(out, 4);
  process.stdout.write(out);
}
function handle(msg) {
  if (msg.id !== undefined) send({ jsonrpc: '2.0', id: msg.id, result: msg.params });
  if (msg.method === 'shutdown') process.exit(0);
}
if (lp) {
  let buf = Buffer.alloc(0);
  process.stdin.on('data', (chunk) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    while (buf.length >= 4) {
      const len = buf.readUInt32BE(0);
      if (buf.length < 4 + len) break;
      handle(JSON.parse(buf.toString('utf8', 4, 4 + len)));
      buf = buf.subarray(4 + len);
    }
  });
} else {
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    pending += chunk;
    let nl;
    while ((nl = pending.indexOf('\n')) !== -1) {
      handle(JSON.parse(pending.slice(0, nl)));
      pending = pending.slice(nl + 1);
    }
  });
}
process.stdin.on('end', () => process.exit(0));
