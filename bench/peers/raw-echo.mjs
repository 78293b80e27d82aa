// The floor: a Node process that reads NDJSON requests and writes NDJSON responses, doing the
// least a JSON protocol peer can do (parse, build a response, stringify).
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let nl;
  while ((nl = pending.indexOf('\n')) !== -1) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    const msg = JSON.parse(line);
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: msg.params })}\n`);
  }
});
process.stdin.on('end', () => process.exit(0));
