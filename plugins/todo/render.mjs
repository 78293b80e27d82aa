// The plan as a markdown checklist.

const MARK = { todo: '[ ]', doing: '[ ]', done: '[x]' };

function title(item) {
  const text = item.title.replace(/\s*\n\s*/g, ' ');
  if (item.status === 'done') return `~~${text}~~`;
  if (item.status === 'doing') return `**${text}** ← doing`;
  return text;
}

export function renderPlan(plan) {
  const { items } = plan;
  if (items.length === 0) return 'The plan is empty. Add a step with `add`.';
  const done = items.filter((i) => i.status === 'done').length;
  const doing = items.filter((i) => i.status === 'doing').length;
  const head = `**Plan** · ${done} of ${items.length} done${doing ? `, ${doing} in progress` : ''}`;
  return [head, '', ...items.map((i) => `- ${MARK[i.status]} #${i.id} · ${title(i)}`)].join('\n');
}

/** A one-line summary of what changed, then the whole plan. */
export function withPlan(headline, plan) {
  return `${headline}\n\n${renderPlan(plan)}`;
}
