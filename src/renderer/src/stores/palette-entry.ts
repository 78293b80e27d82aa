/** What the palette knows of one entry without a page: how it is typed, and whether it needs a form. */
import type { PaletteEntry } from '../../../shared/contract';

/** The text that invokes an entry inline, as the server parses it. */
export function inlineCommand(e: PaletteEntry): string {
  return `/${e.plugin}:${e.name}`;
}

/** Whether a tool needs a form: it declares at least one parameter. */
export function hasParameters(e: PaletteEntry): boolean {
  const props = e.parameters.properties;
  if (typeof props === 'object' && props !== null && Object.keys(props).length > 0) return true;
  // A schema we cannot read as an object of properties gets the JSON form, to be safe.
  return e.parameters.type !== undefined && e.parameters.type !== 'object';
}
