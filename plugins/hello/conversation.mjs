// The passthrough conversation: numbered echoes, a summary, and a way out. Pure logic, no I/O.
// What the user types here never goes to the logs: passthrough is where people paste secrets.

const EXIT_WORDS = new Set(['exit', 'quit', 'bye', '/exit']);

/** "Bye!" and " QUIT " both mean bye. */
function command(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/[.!?]+$/, '');
}

/** Text quoted as a markdown block quote, line by line. */
function quote(text) {
  return text
    .trim()
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export class Conversation {
  constructor(topic) {
    this.topic = typeof topic === 'string' && topic.trim() ? topic.trim() : null;
    this.turns = [];
  }

  get about() {
    return this.topic ? `**${this.topic}**` : 'anything you like';
  }

  welcome() {
    return [
      `Let’s talk about ${this.about}. 💬`,
      '',
      'From now on, what you type comes straight to me instead of the assistant.',
      '- Type `summary` to see what you have said so far.',
      '- Type `exit`, `quit` or `bye` to leave.',
    ].join('\n');
  }

  /** @returns {{text: string, done: boolean}} */
  reply(text) {
    const word = command(text);
    if (EXIT_WORDS.has(word)) {
      return {
        done: true,
        text: `Goodbye! 👋 We talked about ${this.about} for ${plural(this.turns.length, 'turn')}.`,
      };
    }
    if (word === 'summary') return { done: false, text: this.summary() };
    if (word === 'help')
      return {
        done: false,
        text: 'Type anything and I will echo it back. `summary` lists the turns so far; `exit`, `quit` or `bye` ends the conversation.',
      };
    if (word === '') return { done: false, text: 'Say something, or type `bye` to leave.' };
    this.turns.push(text.trim());
    return { done: false, text: `**Turn ${this.turns.length}.** You said:\n\n${quote(text)}` };
  }

  summary() {
    if (this.turns.length === 0) return 'Nothing said yet. Type anything to start.';
    const items = this.turns.map((t, i) => `${i + 1}. ${t.replace(/\s*\n\s*/g, ' ')}`);
    return [`**${plural(this.turns.length, 'turn')} about ${this.topic ?? 'anything'}:**`, '', ...items].join('\n');
  }
}
