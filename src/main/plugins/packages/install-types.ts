/** What the npm and PyPI installers are given and answer (install.ts runs them). */
import type { FoundTool } from './tools';

/** Runs one command of the install step in its sandbox; answers how it ended, in words. */
export interface StepRunner {
  /** The staged plugin folder. */
  pluginDir: string;
  /** `<plugin>/.plugboard`: the one folder the step writes. */
  work: string;
  /** The step's own home (configuration, caches), inside `work`; removed afterwards. */
  home: string;
  /** Plugboard's environment (PATH, HOME), to find the tools. */
  env: NodeJS.ProcessEnv;
  /** Takes the credentials out of the step's home, before packages' own scripts run (config.ts). */
  forgetCredentials(): void;
  /**
   * What of the server's own environment its packages' install scripts get (scriptEnv): a
   * person's `PUPPETEER_SKIP_DOWNLOAD` must reach puppeteer's postinstall, as under `npx -y`.
   */
  scriptEnv: Record<string, string>;
  run(
    file: string,
    args: string[],
    opts: { cwd: string; tools: FoundTool[]; env: Record<string, string> },
  ): Promise<{ ok: boolean; why: string; tail: string[] }>;
}

export type Installed =
  | {
      ok: true;
      version: string;
      integrity: string | null;
      /** The command that runs the server from the plugin folder (`${__dirname}` placeholders). */
      launch: string[];
      env: Record<string, string>;
      /** The lock file, relative to the plugin folder. */
      lock: string;
      packages: number;
    }
  | { ok: false; message: string; tail?: string[] };
