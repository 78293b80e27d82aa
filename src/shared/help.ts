/**
 * The app's Help page, as sections of markdown. The README's "Help in the app" section is the same
 * text, word for word (test/renderer/help-text.test.ts holds them together), so the page and the
 * README cannot drift apart. What each failure code means comes from failures.ts, not from here.
 */
import { FAILURE_CODES, FAILURE_MEANINGS } from './failures';

export interface HelpSection {
  id: string;
  title: string;
  markdown: string;
}

export const HELP_SECTIONS: readonly HelpSection[] = [
  {
    id: 'what',
    title: 'What Plugboard is',
    markdown: `Plugboard runs other people's plugins (NVIDIA G-Assist, Mehrhof, rterm, planner/executor
and MCP servers) as separate processes, supervised and, on Linux, sandboxed, and lets you talk to
them in a chat: directly, with a \`/plugin:tool\` command or the \`/\` palette, or through a language
model that calls the tools you exposed, under your approvals.`,
  },
  {
    id: 'model',
    title: 'Add a model',
    markdown: `Open Settings (the sliders button, or Ctrl/⌘+,) → Models → Add model. Choose an
OpenAI-compatible server (Ollama, LM Studio, llama.cpp's server, vLLM, Jan, OpenRouter), OpenAI or
Anthropic, give its address and model name, and its API key where it needs one (kept in the secret
store, never in a settings file). Test checks that the server answers. Without a model, a plain
message gets a card that offers the model servers found running on this computer. The model menu
beside Send picks the model of each conversation; an installed agent plugin is listed there too.`,
  },
  {
    id: 'install',
    title: 'Install a plugin',
    markdown: `Drop a plugin folder, a \`.zip\`, an \`.mcpb\` or \`.dxt\` bundle on the window, or use
Install plugin… (Ctrl/⌘+I). The preview shows the command that will run, the settings it needs and
the capabilities it asks for, and tries it in the sandbox with nothing granted. Fill in its
settings or tick what it may use and choose Try again to try it with those. Confirm to install.
To bring the MCP servers you set up in Claude Desktop, Cursor or VS Code, drop that app's config
file (\`claude_desktop_config.json\`, \`mcp.json\`).`,
  },
  {
    id: 'panel',
    title: 'Read the plugin panel',
    markdown: `The Plugins button opens the panel: each plugin with its health (ready, busy, starting,
stopped, unresponsive, crashed, restarting, failed, disabled; a remote server waiting for you to sign
in: needs sign-in), its process's CPU and memory, and why
it is not ready when it is not. Open a plugin for its tabs: Tools (expose each to models, and choose
allow, ask or deny), Settings, Permissions (the capabilities you grant), Log (what it wrote to
stderr) and About. A plugin that crashes is restarted after 1 s, 5 s and 30 s, then left failed
with the reason; Restart tries again.`,
  },
  {
    id: 'failures',
    title: 'What a failure code means',
    markdown: `A call or a plugin that fails says how with one code, the same in the app, the CLI and
the logs, and a message that says what to do. The codes:`,
  },
];

/** The README's copy of the help, between these two lines. */
export const README_HELP_START = "<!-- help: the same text as the app's Help page (src/shared/help.ts) -->";
export const README_HELP_END = '<!-- help: end -->';

/** Each failure code and its meaning, a line of a list each. */
export function failureList(): string {
  return FAILURE_CODES.map((code) => `- \`${code}\`: ${FAILURE_MEANINGS[code]}`).join('\n');
}

/** The help as the README shows it: a heading per section, then its text; the codes last. */
export function helpAsMarkdown(): string {
  return `${HELP_SECTIONS.map((s) => `### ${s.title}\n\n${s.markdown}`).join('\n\n')}\n\n${failureList()}`;
}
