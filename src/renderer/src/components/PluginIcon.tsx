/**
 * A server's, tool's or prompt's own icon (MCP, SEP-973) where it gave one, else the app's box.
 * Only `data:` URIs ever reach the screen (the main process checked and, with `net` granted,
 * fetched them: service/icons.ts); the page's policy allows no other picture source anyway. The
 * picture for the theme in effect: servers may give one for light and one for dark backgrounds.
 */
import type { JSX } from 'react';
import type { IconView } from '../../../shared/apps';
import { usePalette } from '../stores/palette';
import { usePlugins } from '../stores/plugins';
import { useUi } from '../stores/ui';
import { Icon } from './Icon';

export function PluginIcon({
  icon,
  size = 12,
  className = 'h-5 w-5 rounded-md border border-line bg-bg text-fg-muted',
}: {
  icon: IconView | undefined;
  size?: number;
  className?: string;
}): JSX.Element {
  const theme = useUi((s) => s.resolvedTheme);
  const src = icon ? (theme === 'dark' ? icon.dark : icon.light) : undefined;
  return (
    <span className={`grid shrink-0 place-items-center overflow-hidden ${className}`} aria-hidden="true">
      {src && src.startsWith('data:image/') ? (
        <img src={src} alt="" width={size + 2} height={size + 2} className="object-contain" data-server-icon />
      ) : (
        <Icon name="box" size={size} />
      )}
    </span>
  );
}

/** A tool's icon for its cards: the tool's own, else its server's. */
export function useToolIcon(plugin: string | undefined, tool: string | undefined): IconView | undefined {
  const own = usePalette((s) =>
    plugin && tool ? s.entries.find((e) => e.plugin === plugin && e.name === tool)?.icon : undefined,
  );
  const server = usePlugins((s) => (plugin ? s.byId[plugin]?.icon : undefined));
  return own ?? server;
}
