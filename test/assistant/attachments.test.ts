/**
 * Files attached to a message: the caps and the sniffing (text is UTF-8 without NUL, images are
 * known by their first bytes), what the model is sent (a delimited text block, an image part), what
 * is refused and why (a / command, an agent plugin model that takes no images), the web UI's upload
 * path for large files, and the store keeping them across a restart. The real back end over real
 * SQLite, real HTTP, and the scripted model server (no language model can run here).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeAttachments } from '../../src/main/assistant/attachments';
import { ConversationStore } from '../../src/main/assistant/store/store';
import { ATTACHMENT_LIMITS, classify, textBlock } from '../../src/shared/attachments';
import { parseInput } from '../../src/shared/contract';
import { serveApp, type ServedApp } from '../helpers/app';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { ModelServer } from '../model-server/server';
import { text } from '../model-server/steps';
import { assistantApp, closeAll, installFixtures, type AssistantApp } from './helpers';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const noUploads = () => undefined;

describe('caps and sniffing', () => {
  it('tells text from images from binaries by their bytes, whatever the name says', () => {
    expect(classify('notes.bin', Buffer.from('héllo\n'))).toEqual({
      ok: true,
      kind: 'text',
      mime: 'text/plain',
      text: 'héllo\n',
    });
    expect(classify('pixel.txt', Buffer.from(PNG, 'base64'))).toEqual({ ok: true, kind: 'image', mime: 'image/png' });
    expect(classify('a.gif', Buffer.from('GIF89a\x01\x00'))).toMatchObject({
      ok: true,
      kind: 'image',
      mime: 'image/gif',
    });
    expect(classify('x.txt', Buffer.from([0x68, 0x00, 0x69]))).toEqual({
      ok: false,
      code: 'invalid_input',
      message: 'x.txt is neither text (UTF-8) nor an image (PNG, JPEG, GIF or WebP): only those can be attached',
    });
    expect(classify('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toMatchObject({ ok: false });
  });

  it('refuses past each cap, naming the file and the cap', () => {
    const big = Buffer.alloc(ATTACHMENT_LIMITS.textBytes + 1, 0x61);
    expect(takeAttachments([{ name: 'huge.log', data: big.toString('base64') }], noUploads)).toMatchObject({
      ok: false,
      code: 'invalid_input',
      message: 'huge.log is 256 KiB: text files are capped at 256 KiB (images at 5 MiB)',
    });
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, data: b64('x') }));
    expect(takeAttachments(eleven, noUploads)).toMatchObject({
      ok: false,
      message: '11 files attached: a message takes 10 at most',
    });
    expect(takeAttachments([{ name: 'gone.png', uploadId: 'abcdefgh12' }], noUploads)).toMatchObject({
      ok: false,
      code: 'not_found',
      message: expect.stringContaining('gone.png'),
    });
    const ok = takeAttachments([{ name: 'a.txt', data: b64('alpha') }], noUploads);
    expect(ok).toMatchObject({ ok: true, files: [{ name: 'a.txt', kind: 'text', mime: 'text/plain', size: 5 }] });
  });

  it('puts a text file in a named block that the file cannot close', () => {
    expect(textBlock('a"b.txt', 'x </attached-file> y')).toBe(
      '<attached-file name="a_b.txt">\nx <\\/attached-file> y\n</attached-file>',
    );
  });

  it('checks chat.send at the boundary: base64 only, a message or a file', () => {
    expect(
      parseInput('chat.send', { conversationId: 'c', text: '', attachments: [{ name: 'a', data: 'not base64!' }] }),
    ).toEqual({ ok: false, code: 'invalid_input', message: 'chat.send: attachments.0.data: not base64' });
    expect(parseInput('chat.send', { conversationId: 'c', text: ' ' })).toEqual({
      ok: false,
      code: 'invalid_input',
      message: 'chat.send: text: empty: type a message or attach a file',
    });
    expect(
      parseInput('chat.send', { conversationId: 'c', text: '', attachments: [{ name: 'a.txt', data: b64('x') }] }).ok,
    ).toBe(true);
  });
});

describe('with a model', () => {
  let app: AssistantApp;
  let model: ModelServer;

  beforeAll(async () => {
    app = await assistantApp('assistant-attachments');
    for (const id of ['files', 'terminal', 'todo', 'hello']) await app.registry.decisions.setEnabled(id, false);
    model = await ModelServer.start();
    await app.connect(model);
  });

  afterAll(() => closeAll(app, model));

  it('sends a text file as a named block and an image as an image part, and keeps both with the message', async () => {
    model.script(text('A cat.'));
    const c = await app.conversation();
    const r = await app.backend.invoke('chat.send', {
      conversationId: c,
      text: 'What is in these?',
      attachments: [
        { name: 'notes.md', data: b64('# Shopping\n- milk') },
        { name: 'pixel.png', data: PNG },
      ],
    });
    if (!r.ok || !r.turnId) throw new Error(r.ok ? 'no turn' : r.message);
    const conv = await app.turnEnded(c, r.turnId);
    const body = model.modelCalls.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    const user = body.messages.find((m) => m.role === 'user')!;
    expect(user.content).toEqual([
      { type: 'text', text: 'What is in these?' },
      { type: 'text', text: '<attached-file name="notes.md">\n# Shopping\n- milk\n</attached-file>' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
    const said = conv.messages.find((m) => m.role === 'user')!;
    expect(said.attachments).toEqual([
      { id: expect.any(String), name: 'notes.md', kind: 'text', mime: 'text/plain', size: 17 },
      {
        id: expect.any(String),
        name: 'pixel.png',
        kind: 'image',
        mime: 'image/png',
        size: Buffer.from(PNG, 'base64').length,
      },
    ]);
    const image = await app.backend.invoke('chat.attachment', { id: said.attachments![1]!.id });
    expect(image).toEqual({ ok: true, name: 'pixel.png', kind: 'image', mime: 'image/png', data: PNG });
  });

  it('sends an image to an Anthropic model in its own wire format', async () => {
    await app.connect(model, { provider: 'anthropic', name: 'Claude', apiKey: 'sk-test' });
    model.script(text('A pixel.'));
    const c = await app.conversation();
    const r = await app.backend.invoke('chat.send', {
      conversationId: c,
      text: 'and this?',
      attachments: [{ name: 'pixel.png', data: PNG }],
    });
    if (!r.ok || !r.turnId) throw new Error(r.ok ? 'no turn' : r.message);
    await app.turnEnded(c, r.turnId);
    const body = model.modelCalls.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'and this?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ],
    });
    await app.backend.invoke('models.setDefault', { name: 'Scripted' }); // the OpenAI-compatible one again
  });

  it('refuses files with a / command, saying why, and starts nothing', async () => {
    const c = await app.conversation();
    const r = await app.backend.invoke('chat.send', {
      conversationId: c,
      text: '/hello:count to=2',
      attachments: [{ name: 'a.txt', data: b64('x') }],
    });
    expect(r).toMatchObject({
      ok: false,
      code: 'invalid_input',
      message:
        'a / command runs a tool with what you type and takes no files: remove a.txt, or send them with a message to the model',
    });
    expect((await app.backend.invoke('chat.get', { id: c }))?.messages).toEqual([]);
  });

  it('refuses an image for an agent plugin model, which reads text only', async () => {
    await installFixtures(app, 'mehrhof-tool-agent');
    const c = await app.conversation();
    await app.backend.invoke('chat.setModel', { conversationId: c, model: 'agent:tool-agent' });
    const r = await app.backend.invoke('chat.send', {
      conversationId: c,
      text: 'look',
      attachments: [{ name: 'pixel.png', data: PNG }],
    });
    expect(r).toMatchObject({
      ok: false,
      code: 'invalid_input',
      message: expect.stringMatching(/does not take images, so pixel\.png cannot go to it/),
    });
  });
  it('edits a message with files: keeps the files it is told to, adds new ones, and the earlier version keeps its own', async () => {
    model.script(text('Milk.'), text('Bread.'));
    const c = await app.conversation();
    const first = await app.backend.invoke('chat.send', {
      conversationId: c,
      text: 'What do I need?',
      attachments: [
        { name: 'notes.md', data: b64('- milk') },
        { name: 'pixel.png', data: PNG },
      ],
    });
    if (!first.ok || !first.turnId) throw new Error(first.ok ? 'no turn' : first.message);
    const before = await app.turnEnded(c, first.turnId);
    const said = before.messages.find((m) => m.role === 'user')!;
    const [notes, pixel] = said.attachments!;

    // A file the message does not have, and an edit that leaves nothing to send, change nothing.
    expect(
      await app.backend.invoke('chat.edit', { conversationId: c, messageId: said.id, text: 'x', keep: ['nope'] }),
    ).toMatchObject({ ok: false, code: 'invalid_input', message: 'keep: the message has no attached file nope' });
    expect(
      await app.backend.invoke('chat.edit', { conversationId: c, messageId: said.id, text: ' ', keep: [] }),
    ).toMatchObject({ ok: false, code: 'invalid_input', message: 'empty: type a message or keep a file' });
    // A / command takes no files: refused before anything became an earlier version.
    expect(
      await app.backend.invoke('chat.edit', { conversationId: c, messageId: said.id, text: '/hello:count' }),
    ).toMatchObject({ ok: false, code: 'invalid_input', message: expect.stringMatching(/^a \/ command/) });
    expect((await app.backend.invoke('chat.get', { id: c }))!.messages.some((m) => m.replaced)).toBe(false);

    const r = await app.backend.invoke('chat.edit', {
      conversationId: c,
      messageId: said.id,
      text: 'And now?',
      keep: [notes!.id],
      attachments: [{ name: 'more.md', data: b64('- bread') }],
    });
    if (!r.ok || !r.turnId) throw new Error(r.ok ? 'no turn' : r.message);
    const after = await app.turnEnded(c, r.turnId);
    const body = model.modelCalls.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    // The model reads the edited message with the kept file and the new one, not the image, and
    // nothing of the earlier version.
    expect(body.messages.filter((m) => m.role === 'user')).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'And now?' },
          { type: 'text', text: '<attached-file name="notes.md">\n- milk\n</attached-file>' },
          { type: 'text', text: '<attached-file name="more.md">\n- bread\n</attached-file>' },
        ],
      },
    ]);
    const edited = after.messages.find((m) => m.role === 'user' && !m.replaced)!;
    expect(edited.attachments?.map((a) => a.name)).toEqual(['notes.md', 'more.md']);
    expect(edited.attachments?.[0]?.id).not.toBe(notes!.id);
    // The earlier version still shows its own files, bytes and all.
    const earlier = after.messages.find((m) => m.id === said.id)!;
    expect(earlier).toMatchObject({ replaced: true, attachments: said.attachments });
    expect(await app.backend.invoke('chat.attachment', { id: pixel!.id })).toMatchObject({ ok: true, data: PNG });
    expect(await app.backend.invoke('chat.attachment', { id: edited.attachments![0]!.id })).toMatchObject({
      ok: true,
      name: 'notes.md',
      data: b64('- milk'),
    });
  });
});

describe('uploaded first (the web UI, large files)', () => {
  let served: ServedApp;
  beforeAll(async () => {
    served = await serveApp('attachment-upload');
  });
  afterAll(async () => {
    await served.close();
    cleanupFixtures();
  });

  it('takes any file name for an attachment upload, and the upload is gone once sent', async () => {
    const base = `http://127.0.0.1:${served.server.port}`;
    const res = await fetch(`${base}/upload`, {
      method: 'POST',
      headers: {
        'x-plugboard-token': served.server.token,
        'x-file-name': encodeURIComponent('report.log'),
        'x-upload-purpose': 'attachment',
        origin: base,
      },
      body: 'line one\nline two\n',
    });
    const { uploadId } = (await res.json()) as { uploadId: string };
    expect(res.status).toBe(200);
    const c = (await served.backend.invoke('chat.create', {})).id;
    expect(
      await served.backend.invoke('chat.send', {
        conversationId: c,
        text: '',
        attachments: [{ name: 'report.log', uploadId }],
      }),
    ).toEqual({ ok: true, turnId: null });
    const m = (await served.backend.invoke('chat.get', { id: c }))!.messages[0]!;
    expect(m.attachments).toMatchObject([{ name: 'report.log', kind: 'text', size: 18 }]);
    // Read once: the same id again is refused.
    const again = await served.backend.invoke('chat.send', {
      conversationId: c,
      text: 'x',
      attachments: [{ name: 'report.log', uploadId }],
    });
    expect(again).toMatchObject({ ok: false, code: 'not_found' });
  });
});

describe('in the store', () => {
  it('keeps a message’s files across a restart, and deletes them with their conversation', async () => {
    const file = path.join(tmpDir('store-attachments'), 'conversations.sqlite');
    const taken = takeAttachments(
      [
        { name: 'a.txt', data: b64('alpha') },
        { name: 'p.png', data: PNG },
      ],
      noUploads,
    );
    if (!taken.ok) throw new Error(taken.message);
    const [a, p] = taken.files;
    const first = await ConversationStore.open(file);
    first.create('c1', 'One', 1);
    first.putMessage(
      'c1',
      {
        id: 'm1',
        role: 'user',
        createdAt: 1,
        text: 'see',
        attachments: [a!, p!].map(({ bytes: _b, ...info }) => info),
      },
      taken.files,
    );
    first.dispose();
    const second = await ConversationStore.open(file);
    expect(second.get('c1')?.messages[0]?.attachments?.map((x) => x.name)).toEqual(['a.txt', 'p.png']);
    expect(Buffer.from(second.attachment(a!.id)!.bytes).toString()).toBe('alpha');
    expect(Buffer.from(second.attachment(p!.id)!.bytes).toString('base64')).toBe(PNG);
    second.delete('c1');
    expect(second.attachment(a!.id)).toBeNull();
    second.dispose();
    cleanupFixtures();
  });
});
