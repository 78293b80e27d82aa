/**
 * What an MCP App is told about its host (`hostContext` in the reply to `ui/initialize`, and
 * `ui/notifications/host-context-changed` after): the theme, Plugboard's colours and fonts as the
 * extension's standard CSS variables (read from the page's own, so an App matches either theme),
 * the locale and time zone, the display mode (inline only), and the tool it shows.
 */
import type { McpUiHostContext, McpUiStyleVariableKey } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppFrameView } from '../../../../../shared/apps';

/** The tallest an App's frame grows inside a card; past it the App scrolls. */
export const MAX_APP_HEIGHT = 640;

/** The extension's variables, from Plugboard's theme variables (styles.css). */
const FROM_THEME: Partial<Record<McpUiStyleVariableKey, string>> = {
  '--color-background-primary': '--bg',
  '--color-background-secondary': '--bg-subtle',
  '--color-background-tertiary': '--bg-muted',
  '--color-background-inverse': '--fg',
  '--color-background-info': '--accent-soft',
  '--color-background-danger': '--bad-soft',
  '--color-background-warning': '--warn-soft',
  '--color-text-primary': '--fg',
  '--color-text-secondary': '--fg-muted',
  '--color-text-tertiary': '--fg-subtle',
  '--color-text-inverse': '--bg',
  '--color-text-info': '--info',
  '--color-text-danger': '--bad',
  '--color-text-success': '--ok',
  '--color-text-warning': '--warn',
  '--color-border-primary': '--line-strong',
  '--color-border-secondary': '--line',
  '--color-border-tertiary': '--line',
  '--color-border-danger': '--bad',
  '--color-ring-primary': '--accent',
};

function styleVariables(): Record<string, string> {
  const css = getComputedStyle(document.documentElement);
  const out: Record<string, string> = {};
  for (const [key, ours] of Object.entries(FROM_THEME)) {
    const v = css.getPropertyValue(ours).trim();
    if (v) out[key] = v;
  }
  const font = getComputedStyle(document.body).fontFamily;
  if (font) out['--font-sans'] = font;
  out['--font-mono'] = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
  out['--border-radius-sm'] = '4px';
  out['--border-radius-md'] = '6px';
  out['--border-radius-lg'] = '8px';
  return out;
}

/** What changes with the theme (sent again when it does). */
export function themeContext(theme: 'light' | 'dark'): Pick<McpUiHostContext, 'theme' | 'styles'> {
  return { theme, styles: { variables: styleVariables() as NonNullable<McpUiHostContext['styles']>['variables'] } };
}

export function hostContext(view: AppFrameView, theme: 'light' | 'dark', desktop: boolean): McpUiHostContext {
  return {
    ...themeContext(theme),
    toolInfo: {
      tool: {
        name: view.tool.name,
        ...(view.tool.title ? { title: view.tool.title } : {}),
        description: view.tool.description,
        inputSchema: view.tool.inputSchema as { type: 'object' },
      },
    },
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    containerDimensions: { maxHeight: MAX_APP_HEIGHT },
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: 'Plugboard',
    platform: desktop ? 'desktop' : 'web',
    deviceCapabilities: { hover: matchMedia('(hover: hover)').matches, touch: navigator.maxTouchPoints > 0 },
  };
}
