// Stream source for the throughput benchmark, used by both the raw reader and the host: on a
// `blast {n, size}` request it writes n `stream` notifications of `size` bytes as fast as the
// pipe takes them, then the response. The same bytes either way.
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let nl;
  while ((nl = pending.indexOf('\n')) !== -1) {
    const msg = JSON.parse(pending.slice(0, nl));
    pending = pending.slice(nl + 1);
    if (msg.method === 'blast') blast(msg.id, msg.params.n, msg.params.size);
    else if (msg.id !== undefined)
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: {} })}\n`);
  }
});
process.stdin.on('end', () => process.exit(0));

function blast(id, n, size) {
  const line = `${JSON.stringify({ jsonrpc: '2.0', method: 'stream', params: { type: 'text', data: 'x'.repeat(size) } })}\n`;
  let i = 0;
  const pump = () => {
    while (i < n) {
      i++;
      if (!process.stdout.write(line)) return process.stdout.once('drain', pump);
    }
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: 'done' })}\n`);
  };
  pump();
}
