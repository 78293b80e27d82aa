/**
 * Each command's one-line summary and its --help text. They live apart from the commands so that
 * `plugboard --help` and `plugboard <command> --help` load this file only, not the plugin host
 * each command imports (the commands are loaded on demand: see main.ts).
 */

export const callHelp = `Usage: plugboard call <plugin> <function> [options]

Calls one function of a plugin and streams its output as it arrives.
<plugin> is the id of an installed plugin, or a plugin folder or manifest file written as a
path (./NAME, /path, dir/NAME): a bare NAME is the installed plugin NAME when there is one,
else a folder NAME here. On Linux a plugin run from a path runs in the sandbox it gets once
installed, granted what its manifest requests.

Options:
  --args JSON        arguments, a JSON object (default {})
  --input TEXT       a passthrough turn, sent while the plugin keeps the session (repeatable)
  --json             one JSON object per line: stream, complete, error, health, log
  --timeout-ms N     the call's inactivity timeout (default: the plugin's, 30000)
  --set KEY=VALUE    a setting, for a plugin run from a folder (repeatable; installed plugins
                     use their configured settings: plugboard plugins config)
  --data-dir DIR     where installed plugins live (default $PLUGBOARD_HOME or ~/.config/plugboard)
  --no-sandbox       run a plugin from a path as it is, not in the sandbox (Linux)
  -h, --help         this help

Exit status: 0 when the call succeeds, 1 when it fails (any failure code, or success: false),
2 on a usage error.`;

export const checkHelp = `Usage: plugboard check <plugin> [--json]

Checks a plugin before you publish it: the manifest, launch, handshake, declared versus
announced tools, ping behaviour, a clean exit on shutdown, and nothing left running. On Linux
it runs in the sandbox it gets once installed: its own folder, its data folder, the system
folders and what it is granted, nothing else.
<plugin> is an installed plugin's id (checked with its settings and granted capabilities),
or a plugin folder or manifest file written as a path (./NAME, /path, dir/NAME); a bare NAME
is a folder here only when no plugin has that id.

Options:
  --set KEY=VALUE  a setting the plugin needs to start (repeatable)
  --data-dir DIR   where installed plugins live
  --no-sandbox     run it as it is, not in the sandbox it gets once installed (Linux)
  --json      one JSON object: {"ok": bool, "plugin": id, "checks": [{name, status, detail}]}
  -h, --help  this help

Exit status: 0 when every check passes (warnings allowed), 1 otherwise, 2 on a usage error.`;

export const benchHelp = `Usage: plugboard bench <plugin> <function> [--args JSON] [-n N] [--json]

Makes N sequential calls through one running plugin (after a short warm-up) and prints the
p50, p95 and p99 latency and the calls per second.

Options:
  --args JSON     arguments for every call (default {})
  -n N            number of measured calls (default 1000)
  --json          one JSON object: {n, p50_us, p95_us, p99_us, calls_per_s}
  --data-dir DIR  where installed plugins live
  --no-sandbox    run a plugin from a path as it is, not in the sandbox (Linux)
  -h, --help      this help`;

export const pluginsHelp = `Usage: plugboard plugins <command> [arguments] [--data-dir DIR] [--json]

Commands:
  list                                 every bundled and installed plugin, with its state
  install <folder|.zip|.mcpb|.dxt>     install a plugin [--replace] [--grant CAP]... [--grant-none]
                                       [--folder PATH[:ro]]... [--id ID] (beside a plugin of its id)
  import <config file>                 install the MCP servers of another app's config (Claude
                                       Desktop, Cursor, VS Code, Cherry Studio, 5ire), after a
                                       preview [--preview] [--only NAME,...] [--secret ENV,...]
                                       [--net NAME,...] [--no-folders NAME,...] [--id NAME=ID]...
                                       [--copy NAME,...]
  uninstall <id>                       stop and remove a plugin with its settings and secrets
  expose <id>[:<tool>]                 switch a plugin or one of its tools on
  unexpose <id>[:<tool>]               switch it off (calls are refused with tool_not_exposed)
  enable <id> | disable <id>           a disabled plugin is never started
  grant <id> <capability>...           add to the plugin's allow-list (net to any plugin), or a
                                       folder or file by path [--folder PATH[:ro]]...
  revoke <id> <capability>...          remove from it (--folder PATH too)
  config <id> KEY=VALUE...             set settings (KEY= to unset); repeat a KEY for a list
  limits <id> [KEY=VALUE...]           what it may consume (processes, memory, cpu, tmp, data) and
                                       where each value comes from; set yours (memory=2G
                                       processes=256), or back to the defaults with --default
  search <words>...                    servers of the catalog (an MCP registry) whose name matches
  add <name>[@version]                 install a catalog entry, pinned, after a preview [--preview]
                                       [--only npm|pypi|oci|remote,...] [--secret ENV,...]
  registry [<url> | --default]         the registry the catalog reads (default the official one)
  outdated [<id>]                      the version each installed plugin's origin offers (changes nothing)
  update <id>                          install the other version staged, after a preview of what
                                       changes in its tools [--preview] [--version V] [--from PATH]
  rollback <id>                        put back the version the last update replaced
  signin <id>                          sign in to a remote MCP server (OAuth): prints the page to
                                       open, opens it in the browser where there is a display
                                       (not with --no-browser), and waits for the browser
  signout <id>                         forget a remote server's tokens (revoked where it can)

Options:
  --data-dir DIR   the data directory (default $PLUGBOARD_HOME or ~/.config/plugboard)
  --json           machine-readable output
  --no-browser     signin: print the address only
  -h, --help       this help

An install grants what the plugin requests unless you pass --grant (only those) or --grant-none;
the folders and files its manifest names are listed, not granted: --folder PATH[:ro] grants one.
A server its command fetches (npx -y, bunx, pnpm dlx, uvx, uv tool run, pipx run) gets its
package installed once into its folder, pinned, the install step's lines on stderr.
An imported server gets its paths granted (not with --no-folders) and the network only with
--net; one whose id is taken installs under another id (or --id NAME=ID), replacing nothing.
One run from a folder of yours (node /abs/project/build/index.js) is shown that folder
read-only, or, with --copy, runs from a copy of it in Plugboard (where the preview offers it).
An import installs every server that can run and is switched on unless --only names some; the
environment variables it flags as secrets (or those --secret names; --secret= for none) become
sensitive settings. A malformed file is refused with the line and field at fault.
Sensitive settings are kept out of the settings file, in <data dir>/secrets.json (mode 0600);
so are the tokens of a sign-in.
A plugin never changes by itself: \`outdated\` only asks (the catalog entry it came from, the npm
or PyPI package it is pinned to, or the folder or package it was installed from), and \`update\`
keeps the version it replaces for \`rollback\`. \`update --from PATH\` installs a newer folder, .zip
or .mcpb of the same id over it. \`add\` installs the first way the entry can run here unless
--only names others; its secret variables go to the secret store.`;

export const serveHelp = `Usage: plugboard serve [--host 127.0.0.1] [--port N] [--data-dir DIR]
                      [--tls-cert FILE --tls-key FILE] [--trusted-network]

Serves the Plugboard UI and its API over HTTP and WebSocket, for a browser, and the plugins as an
MCP server over Streamable HTTP at /mcp, for other apps. Prints the URL to open; it carries a
random token, and the server refuses requests without it or from another origin. An MCP client
sends the same token as "Authorization: Bearer TOKEN" (401 without it). --port 0 (the default)
picks a free port. It listens on loopback only unless --host names another address; then it
refuses to start unless the connection is encrypted (--tls-cert and --tls-key) or you say the
network in between is trusted (--trusted-network): otherwise the token crosses it in clear.

Options:
  --host ADDR        address to listen on (default 127.0.0.1)
  --port N           port (default 0: any free port)
  --data-dir DIR     the data directory (default $PLUGBOARD_HOME or ~/.config/plugboard)
  --tls-cert FILE    serve HTTPS with this certificate (PEM), with --tls-key
  --tls-key FILE     the certificate's private key (PEM)
  --trusted-network  serve plain HTTP on a non-loopback address (a network you trust)
  -h, --help         this help`;

export const mcpHelp = `Usage: plugboard mcp [--data-dir DIR]
       plugboard mcp --print-config claude|cursor|vscode [--data-dir DIR]

Runs Plugboard as an MCP server on stdin and stdout, for Claude Desktop, Cursor, VS Code or any
MCP client: its tools are the exposed tools of every enabled plugin, of every protocol, named
<plugin>__<tool> (as a model in the app sees them), and the prompts and resources of the MCP
servers it hosts. Calls go through the same approvals, sandbox, limits and audit log as the app's;
a tool set to ask is asked about in the calling app's form (where it offers forms) and in the
Plugboard app open on the same data folder, the first answer deciding; with neither it is refused.
Stdout carries the protocol only; notes go to stderr. Every plugin it started is stopped when the
app disconnects.

--print-config APP prints what to put in that app's MCP config file (the command with its
absolute path, and the data folder) and exits.

Options:
  --data-dir DIR          the data directory (default $PLUGBOARD_HOME or ~/.config/plugboard)
  --print-config APP      claude, cursor or vscode
  -h, --help              this help`;

export const modelsHelp = `Usage: plugboard models <command> [arguments] [--data-dir DIR]

The language models the assistant answers with, the same list as Settings → Models in the app.

Commands:
  add NAME --provider KIND [--model ID] [--base-url URL] [--api-key-env VAR] [--default]
                    connect a model; KIND is openai-compatible (Ollama, LM Studio, llama.cpp,
                    vLLM, Jan, OpenRouter: --base-url needed), openai or anthropic. Without
                    --model, the server is asked and the only model it lists is taken
  list [--json]     every model, which one is the default and which have a key (never the key)
  remove NAME       forget a model and its key
  test NAME         reach its server: the latency and how many models it lists, or the error

Options:
  --provider KIND    openai-compatible, openai or anthropic
  --model ID         the model's id at the provider (llama3.2, gpt-4.1-mini, claude-sonnet-4-5);
                     needed when the server lists several models or cannot be reached
  --base-url URL     the server's API root, with /v1 for OpenAI-compatible servers
                     (Ollama: http://127.0.0.1:11434/v1); default the provider's own
  --api-key-env VAR  read the API key from the environment variable VAR, once, and keep it in
                     the secret store (<data dir>/secrets.json, mode 0600); it is never printed
  --default          make it the model conversations use unless they name another
  --json             (list) one JSON object: {models: [...], defaultModel, keyStore}
  --data-dir DIR     the data directory (default $PLUGBOARD_HOME or ~/.config/plugboard)
  -h, --help         this help

Exit status: 0 done, 1 refused or failed (test: the server could not be used), 2 on a usage
error.`;

export const chatHelp = `Usage: plugboard chat [MESSAGE] [options]

Talks to the assistant, the same one as the app: the model answers, calling the tools of your
plugins, each call decided by its tool's policy (allow, ask, deny) or by --approve. MESSAGE is
one turn; without it, on a terminal, a session: each line is a turn, Ctrl-D or "exit" ends it.
Ctrl-C stops the turn that is running; a second Ctrl-C quits. SIGTERM quits at once.

When the model asks you something (its ask_user tool): on a terminal the question is shown
with its choices numbered and you type the answer (a number or the choice; several separated
by commas where it allows; Ctrl-C stops the turn). Without a terminal nobody can answer, so
the model is told at once that the user is not available, and goes on without the answer.

Options:
  --model NAME         the conversation uses this configured model (plugboard models list)
  --conversation ID    continue that conversation (its id is printed when a turn ends)
  --approve MODE       calls whose policy is "ask": ask (prompt on the terminal: allow once,
                       for this conversation, always, or deny), all (allow them), none (deny
                       them). Default ask on a terminal, none otherwise. A tool's allow or
                       deny policy always applies.
  --json               one JSON object per line on stdout (see below)
  --data-dir DIR       the data directory (default $PLUGBOARD_HOME or ~/.config/plugboard)
  -h, --help           this help

Without --json the answer streams to stdout; tool calls, decisions, results, questions and
the tokens the turn took are short lines on stderr. With --json, stdout has one object per
line, and only these:
  {"type":"text","delta"}                a piece of the model's answer
  {"type":"tool_call","id","plugin","tool","arguments"}
                                         the model calls a tool (its own ask_user and
                                         find_tools have the plugin "assistant")
  {"type":"approval","id","decision":"allowed"|"denied","by":"policy"|"user"|"flag"}
  {"type":"tool_stream","id","data"}     a piece of the tool's output
  {"type":"tool_result","id","success":true,"output"}
                                         or "success":false with "code" and "message"
  {"type":"usage","input_tokens","output_tokens"}
                                         the turn's tokens (estimated where the
                                         server gave no counts)
  {"type":"done","text","conversation"}  last, when the turn is done
  {"type":"error","code","message"}      last, when it is not
A denied call has no tool_result: it never ran.

Exit status: 0 when the turn is done, 1 on an error (no model configured: no_model; the model
failed or refused; stopped: cancelled), 2 on a usage error.`;
