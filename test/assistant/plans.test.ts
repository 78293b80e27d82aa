/**
 * Plans: `/plan <request>` in a conversation. The example planner (examples/model-planner, a real
 * plugin built on the AI SDK) plans and executes with the scripted model server as its model (no
 * model can run here); its tasks run in dependency order as tool-call cards under the usual
 * policies and approvals, its sequenced stream shown live, and what is done is sent back to it.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/shared/contract';
import { REPO } from '../helpers/plugins';
import { lastUserText, systemText } from '../model-server/requests';
import { ModelServer } from '../model-server/server';
import { text } from '../model-server/steps';
import { assistantApp, closeAll, type AssistantApp } from './helpers';

let app: AssistantApp;
let model: ModelServer;

const PLAN = JSON.stringify({
  tasks: [
    { id: 't2', description: 'Write the summary', dependencies: ['t1'] },
    { id: 't1', description: 'List the facts', dependencies: [] },
  ],
  explanation: 'Facts first, then the summary.',
});

beforeAll(async () => {
  app = await assistantApp('assistant-plans');
  model = await ModelServer.start();
  for (const id of ['files', 'terminal', 'todo', 'hello']) await app.registry.decisions.setEnabled(id, false);
});

afterAll(() => closeAll(app, model));

async function plan(said: string): Promise<ChatMessage[]> {
  const c = await app.conversation();
  const r = (await app.backend.invoke('chat.send', { conversationId: c, text: said })) as {
    ok: boolean;
    turnId: string;
    message?: string;
  };
  expect(r.ok, r.message).toBe(true);
  return (await app.turnEnded(c, r.turnId)).messages;
}

describe('/plan', () => {
  it('without a planner installed, says what to install', async () => {
    const c = await app.conversation();
    const r = await app.backend.invoke('chat.send', { conversationId: c, text: '/plan write a report' });
    expect(r).toEqual(
      expect.objectContaining({
        ok: false,
        code: 'not_found',
        message: expect.stringMatching(/no plugin makes plans: install one that answers create_plan/),
      }),
    );
  });

  describe('with the example planner', () => {
    beforeAll(async () => {
      expect(
        (await app.registry.installer.install(path.join(REPO, 'examples', 'model-planner'), { grant: 'requested' })).ok,
      ).toBe(true);
      expect(
        (await app.registry.decisions.configure('model-planner', { base_url: model.baseURL, model: 'scripted-model' }))
          .ok,
      ).toBe(true);
    });

    it('shows the plan as a checklist, runs each task after the ones it needs, streams it, and tells the planner what is done', async () => {
      await app.registry.decisions.setToolPolicy('model-planner', 'execute_task', 'allow');
      model.script(text(PLAN), text('Fact A. ', 'Fact B.'), text('In short: A and B.'));
      const messages = await plan('/plan summarise the facts');
      const [user, checklist, first, second] = messages;
      expect(user).toEqual(expect.objectContaining({ role: 'user', text: '/plan summarise the facts' }));
      expect(checklist?.plan?.tasks.map((t) => [t.id, t.status])).toEqual([
        ['t1', 'done'],
        ['t2', 'done'],
      ]);
      expect(checklist?.text).toBe(
        'Facts first, then the summary.\n\n- [x] List the facts\n- [x] Write the summary\n\n2 of 2 tasks done.',
      );
      expect(checklist?.status).toBe('done');
      expect(first).toEqual(
        expect.objectContaining({ role: 'plugin', pluginId: 'model-planner', tool: 'execute_task', status: 'done' }),
      );
      expect(first?.text).toContain('Fact A. Fact B.');
      expect(second?.args).toEqual(
        expect.objectContaining({ prompt: 'Write the summary', context: { task_id: 't2', completed_tasks: ['t1'] } }),
      );
      // The model was asked to plan the request, then to do t1, then t2 with t1's result before it.
      const [planned, did1, did2] = model.modelCalls.slice(-3);
      expect(lastUserText(planned!)).toBe('summarise the facts');
      expect(lastUserText(did1!)).toBe('List the facts');
      expect(lastUserText(did2!)).toBe('Write the summary');
      // t1's result reached t2 because Plugboard told the planner t1 was done (update_context).
      expect(systemText(did2!)).toContain('Task t1 gave:\nFact A. Fact B.');
      await app.registry.decisions.setToolPolicy('model-planner', 'execute_task', null);
    });

    it('asks before each task; a denied task skips the tasks that need it, and says so', async () => {
      model.script(text(PLAN));
      const c = await app.conversation();
      const r = (await app.backend.invoke('chat.send', { conversationId: c, text: '/plan summarise the facts' })) as {
        ok: true;
        turnId: string;
      };
      const asked = await app.prompt(c);
      expect(asked.args).toEqual(expect.objectContaining({ prompt: 'List the facts' }));
      await app.backend.invoke('chat.approve', { callId: asked.call!.id, decision: 'deny' });
      const messages = (await app.turnEnded(c, r.turnId)).messages;
      const checklist = messages.find((m) => m.plan);
      expect(checklist?.plan?.tasks.map((t) => [t.id, t.status, t.note ?? ''])).toEqual([
        ['t1', 'denied', ''],
        ['t2', 'skipped', 'needs t1, which ended denied'],
      ]);
      expect(checklist?.text).toContain('- [ ] Write the summary (skipped): needs t1, which ended denied');
      // Nothing ran: the model was asked to plan, and nothing more.
      expect(messages.filter((m) => m.role === 'plugin')).toHaveLength(1);
    });

    it('a plan the planner cannot give is an error on the turn, with the reason', async () => {
      model.script(text('I would rather not.'));
      const messages = await plan('/plan something');
      const last = messages.at(-1);
      expect(last).toEqual(expect.objectContaining({ role: 'assistant', status: 'error' }));
      expect(last?.failure?.message).toMatch(/the model's plan was not JSON: I would rather not\./);
    });
  });
});
