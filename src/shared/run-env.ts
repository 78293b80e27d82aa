/**
 * Environment variables that change what runs: set on a server, they load other code into it
 * (LD_PRELOAD, NODE_OPTIONS=--require, PYTHONSTARTUP), make a shell run a file first (BASH_ENV,
 * ENV), or pick which program a bare name means (PATH) or where a package comes from, where its
 * traffic goes and whom it trusts (a proxy, certificate checks). A preview
 * of a server shows their values and flags them: they decide what "npx -y some-server" runs as
 * much as the command line does. Pure; shared by the import preview, its screen and the CLI.
 */

const BY_NAME: Record<string, string> = {
  LD_PRELOAD: 'loads a library into every program it starts',
  LD_LIBRARY_PATH: 'changes which libraries programs load',
  LD_AUDIT: 'loads a library into every program it starts',
  DYLD_INSERT_LIBRARIES: 'loads a library into every program it starts (macOS)',
  DYLD_LIBRARY_PATH: 'changes which libraries programs load (macOS)',
  GLIBC_TUNABLES: 'changes how the C library behaves in every program',
  NODE_OPTIONS: 'adds options to every Node.js program (--require loads code first)',
  NODE_PATH: 'changes where Node.js finds modules',
  PYTHONSTARTUP: 'a file Python runs first',
  PYTHONPATH: 'changes where Python finds modules',
  PYTHONHOME: 'changes which Python library runs',
  PYTHONINSPECT: 'keeps Python running after the program',
  PERL5OPT: 'adds options to every Perl program',
  PERL5LIB: 'changes where Perl finds modules',
  RUBYOPT: 'adds options to every Ruby program',
  RUBYLIB: 'changes where Ruby finds libraries',
  JAVA_TOOL_OPTIONS: 'adds options (agents) to every Java program',
  _JAVA_OPTIONS: 'adds options to every Java program',
  BASH_ENV: 'a file bash runs before any script',
  ENV: 'a file sh runs first',
  ZDOTDIR: 'where zsh reads its start-up files',
  PROMPT_COMMAND: 'a command bash runs before each prompt',
  SHELLOPTS: 'changes how bash runs scripts',
  BASHOPTS: 'changes how bash runs scripts',
  PS4: 'runs when bash traces a script',
  PATH: 'decides which program a bare name (npx, node, python3, uvx) runs',
  NPM_CONFIG_REGISTRY: 'where npx and npm download packages from',
  NPM_CONFIG_SCRIPT_SHELL: 'the shell npm runs scripts with',
  NPM_CONFIG_USERCONFIG: 'the npm configuration file read',
  NPM_CONFIG_PREFIX: 'where npm installs and finds programs',
  PIP_INDEX_URL: 'where pip downloads packages from',
  PIP_EXTRA_INDEX_URL: 'another place pip downloads packages from',
  UV_INDEX_URL: 'where uv (uvx) downloads packages from',
  UV_DEFAULT_INDEX: 'where uv (uvx) downloads packages from',
  UV_EXTRA_INDEX_URL: 'another place uv (uvx) downloads packages from',
  GIT_SSH_COMMAND: 'the command git runs to connect',
  GIT_EXEC_PATH: 'where git finds its programs',
  GIT_CONFIG_PARAMETERS: 'git settings, some of which run commands (core.sshCommand, core.fsmonitor)',
  GIT_CONFIG_COUNT: 'git settings given in the environment, some of which run commands',
  GIT_CONFIG_GLOBAL: 'the git configuration file read',
  GIT_CONFIG_SYSTEM: 'the git configuration file read',
  GCONV_PATH: 'loads character-set modules (code) into programs that convert text',
  PYTHONWARNINGS: 'can make Python import a module at start',
  PYTHONBREAKPOINT: 'the code Python runs at a breakpoint',
  BROWSER: 'the program run to open a web page',
  EDITOR: 'the program run to edit a file',
  VISUAL: 'the program run to edit a file',
  PAGER: 'the program run to show long output',
  GIT_PAGER: 'the program git runs to show long output',
  HTTPS_PROXY: 'where web traffic goes (a proxy sees it)',
  HTTP_PROXY: 'where web traffic goes (a proxy sees it)',
  ALL_PROXY: 'where network traffic goes (a proxy sees it)',
  NODE_TLS_REJECT_UNAUTHORIZED: 'turns off Node.js certificate checks when 0',
  NODE_EXTRA_CA_CERTS: 'which certificate authorities Node.js trusts',
  SSL_CERT_FILE: 'which certificate authorities programs trust',
  REQUESTS_CA_BUNDLE: 'which certificate authorities Python requests trusts',
  SSLKEYLOGFILE: 'writes the keys of encrypted connections to a file',
};

/** Patterns of names that change what runs, with why. */
const BY_PATTERN: Array<[RegExp, string]> = [
  [/^GIT_CONFIG_(KEY|VALUE)_\d+$/, 'a git setting given in the environment; some run commands'],
];

/** Why a variable changes what runs, or undefined when it does not (names compared without case). */
export function changesWhatRuns(name: string): string | undefined {
  const upper = name.toUpperCase();
  return BY_NAME[upper] ?? BY_PATTERN.find(([re]) => re.test(upper))?.[1];
}
