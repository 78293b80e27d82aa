/**
 * The app's icons: simple strokes on a 16-unit grid, drawn here so there is no icon font or
 * remote asset (the CSP forbids those anyway). Decorative: the control carries the name.
 */
import type { JSX } from 'react';

const paths = {
  plus: 'M8 3.5v9M3.5 8h9',
  sidebar: 'M2.5 3.5h11v9h-11zM6 3.5v9',
  panel: 'M2.5 3.5h11v9h-11zM10 3.5v9',
  sun: 'M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zM8 1.5v1.5M8 13v1.5M1.5 8H3M13 8h1.5M3.4 3.4l1 1M11.6 11.6l1 1M3.4 12.6l1-1M11.6 4.4l1-1',
  moon: 'M13 9.5A5.5 5.5 0 0 1 6.5 3a5.5 5.5 0 1 0 6.5 6.5z',
  monitor: 'M2 3h12v8H2zM5.5 14h5M8 11v3',
  help: 'M6.2 6.2a1.9 1.9 0 1 1 2.6 1.8c-.5.2-.8.6-.8 1.1v.4M8 11.3v.2M8 14.5a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13z',
  x: 'M4 4l8 8M12 4l-8 8',
  paperclip: 'M10.5 5L6 9.5a1.1 1.1 0 0 0 1.5 1.5l5-5a2.5 2.5 0 0 0-3.5-3.5l-5.2 5.2a3.9 3.9 0 0 0 5.5 5.5L13.5 9',
  file: 'M4 1.8h5l3 3v9.4H4zM9 1.8v3h3',
  image: 'M2.5 3h11v10h-11zM2.5 11l3.5-3.5 3 3 2-2 2.5 2.5M10.5 6h.1',
  folder: 'M1.8 3.5h4.4l1.5 1.5h6.5v8H1.8z',
  chevronRight: 'M6 3.5L10.5 8 6 12.5',
  chevronDown: 'M3.5 6L8 10.5 12.5 6',
  arrowUp: 'M8 13V3.5M3.8 7.5L8 3.3l4.2 4.2',
  arrowDown: 'M8 3v9.5M3.8 8.5L8 12.7l4.2-4.2',
  stop: 'M4.5 4.5h7v7h-7z',
  copy: 'M5.5 5.5h7v7h-7zM3.5 10.5v-7h7',
  download: 'M8 2.5v8M4.5 7.5L8 11l3.5-3.5M3 13.5h10',
  trash: 'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 9h5.8l.6-9',
  pencil: 'M10.5 2.5l3 3-7.5 7.5H3v-3z',
  play: 'M5 3.5v9l7-4.5z',
  restart: 'M13 8a5 5 0 1 1-1.5-3.6M13 2.5v3h-3',
  power: 'M8 2v5.5M4.6 4.2a5 5 0 1 0 6.8 0',
  alert: 'M8 2L1.8 13h12.4zM8 6.5v3M8 11.2v.3',
  plug: 'M6 1.5v3M10 1.5v3M4 4.5h8v3a4 4 0 0 1-8 0zM8 11.5v3',
  search: 'M7 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zM10.6 10.6L14 14',
  check: 'M3 8.5l3 3 7-7',
  terminal: 'M2.5 3h11v10h-11zM5 6.5L7 8.5 5 10.5M8.5 10.5h3',
  box: 'M8 1.8l5.5 3v6.4L8 14.2l-5.5-3V4.8zM2.5 4.8L8 7.8l5.5-3M8 7.8v6.4',
  chat: 'M2.5 3.5h11v7.5H7l-3 2.5V11H2.5z',
  keyboard: 'M1.5 4h13v8h-13zM4 6.5h.1M6.5 6.5h.1M9 6.5h.1M11.5 6.5h.1M4.5 9.5h7',
  // Sliders, not a cog: a cog drawn this small read as a second sun beside the theme toggle.
  settings:
    'M2 4.5h3.5M8.5 4.5H14M5.5 4.5a1.5 1.5 0 1 0 3 0 1.5 1.5 0 0 0-3 0zM2 11.5h6.5M11.5 11.5H14M8.5 11.5a1.5 1.5 0 1 0 3 0 1.5 1.5 0 0 0-3 0z',
  shield: 'M8 1.8l5 2v4c0 3-2.2 5.4-5 6.4-2.8-1-5-3.4-5-6.4v-4z',
  key: 'M10.5 2a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7zM8 7.5L2.5 13v1.5H4l.5-1.5h1.5V12h1.5z',
  sparkle:
    'M8 1.8l1.4 4.1 4.1 1.4-4.1 1.4L8 12.8 6.6 8.7 2.5 7.3l4.1-1.4zM12.8 11.2l.5 1.5 1.5.5-1.5.5-.5 1.5-.5-1.5-1.5-.5 1.5-.5z',
  clock: 'M8 14.5a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13zM8 4.5V8l2.5 1.5',
  wrench: 'M10 2a3.5 3.5 0 0 0-3.3 4.6L2.5 10.8l2.7 2.7 4.2-4.2A3.5 3.5 0 0 0 14 6l-2 2-2-2 2-2A3.5 3.5 0 0 0 10 2z',
  globe:
    'M8 14.5a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13zM1.5 8h13M8 1.5c1.8 1.8 2.7 4 2.7 6.5S9.8 12.7 8 14.5M8 1.5C6.2 3.3 5.3 5.5 5.3 8s.9 4.7 2.7 6.5',
} as const;

export type IconName = keyof typeof paths;

export function Icon({
  name,
  size = 16,
  className,
}: {
  name: IconName;
  size?: number;
  className?: string;
}): JSX.Element {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.4}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      <path d={paths[name]} />
    </svg>
  );
}
