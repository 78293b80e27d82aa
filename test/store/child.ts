/**
 * A Plugboard-like process for the store's tests, run as `node --import tsx child.ts MODE FILE …`:
 *   write FILE N TAG   writes N messages to conversation "c", printing `ack ID` once each
 *                      putMessage has returned ok (stdout to a pipe is synchronous on Linux, so an
 *                      ack the test reads was acknowledged before any kill that follows it)
 *   hold FILE          opens the store, prints `ready`, keeps it until stdin closes
 */
import { ConversationStore } from '../../src/main/assistant/store/store';
import { messageText } from './texts';

const [mode, file, n, tag] = process.argv.slice(2) as [string, string, string | undefined, string | undefined];

async function main(): Promise<void> {
  let store: ConversationStore;
  try {
    store = await ConversationStore.open(file);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(3);
  }
  if (mode === 'hold') {
    process.stdout.write('ready\n');
    process.stdin.resume();
    process.stdin.on('end', () => {
      store.dispose();
      process.exit(0);
    });
    return;
  }
  if (!store.has('c')) store.create('c', 'kill test', Date.now());
  for (let i = 0; i < Number(n); i++) {
    const id = `${tag}-${i}`;
    const o = store.putMessage('c', { id, role: 'user', createdAt: i, text: messageText(id) });
    if (!o.ok) throw new Error(o.message);
    process.stdout.write(`ack ${id}\n`);
  }
  store.dispose();
}

void main();
