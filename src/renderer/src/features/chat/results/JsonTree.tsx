/**
 * Any other JSON as a tree that opens and closes. Built on <details>/<summary>: the browser makes
 * each node a button that Tab reaches and Enter or Space toggles, and tells screen readers
 * whether it is open, which no tree library here would do better for a read-only view. A closed
 * node renders nothing inside, so a large result costs what is open. An array of flat objects
 * inside is a table.
 */
import { useState, type JSX } from 'react';
import { isPlainObject, isScalar, scalarText, summaryOf, tableOf, type Scalar } from './result-shape';
import { ResultTable } from './ResultTable';

/** Nodes this deep are open at first; deeper ones wait for a click. */
const OPEN_DEPTH = 2;
/** Children shown before a "show all" button: a huge array must not render at once. */
const FIRST_CHILDREN = 200;

function Leaf({ value }: { value: Scalar }): JSX.Element {
  const tone = typeof value === 'string' ? 'text-ok' : typeof value === 'number' ? 'text-info' : 'text-fg-subtle';
  return (
    <span className={`break-all ${tone}`}>{typeof value === 'string' ? JSON.stringify(value) : scalarText(value)}</span>
  );
}

function Name({ name }: { name: string | null }): JSX.Element | null {
  if (name === null) return null;
  return <span className="text-fg-muted">{name}: </span>;
}

function Children({ value, depth, root = false }: { value: object; depth: number; root?: boolean }): JSX.Element {
  const [all, setAll] = useState(false);
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value);
  const shown = all ? entries : entries.slice(0, FIRST_CHILDREN);
  return (
    <div className={root ? '' : 'ml-[5px] border-l border-line pl-3'}>
      {shown.map(([k, v]) => (
        <Node key={k} name={k} value={v} depth={depth + 1} />
      ))}
      {shown.length < entries.length && (
        <button type="button" onClick={() => setAll(true)} className="text-fg-muted underline hover:text-fg">
          Show {entries.length - shown.length} more
        </button>
      )}
    </div>
  );
}

function Node({ name, value, depth }: { name: string | null; value: unknown; depth: number }): JSX.Element {
  const [open, setOpen] = useState(depth < OPEN_DEPTH);
  if (isScalar(value) || (!Array.isArray(value) && !isPlainObject(value))) {
    return (
      <div>
        <Name name={name} />
        <Leaf value={isScalar(value) ? value : String(value)} />
      </div>
    );
  }
  const empty = summaryOf(value).startsWith('0 ');
  if (empty) {
    return (
      <div>
        <Name name={name} />
        <span className="text-fg-subtle">{Array.isArray(value) ? '[]' : '{}'}</span>
      </div>
    );
  }
  const table = tableOf(value);
  return (
    <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer rounded marker:text-fg-subtle hover:bg-muted">
        <Name name={name} />
        <span className="text-fg-subtle">
          {Array.isArray(value) ? `[ ${summaryOf(value)} ]` : `{ ${summaryOf(value)} }`}
        </span>
      </summary>
      {open &&
        (table ? (
          <div className="my-1 ml-4">
            <ResultTable table={table} label={name ?? undefined} />
          </div>
        ) : (
          <Children value={value} depth={depth} />
        ))}
    </details>
  );
}

/** The top object's or array's entries are the first lines: a line saying "5 keys" above them would say nothing. */
export function JsonTree({ value }: { value: unknown }): JSX.Element {
  const container = Array.isArray(value) || isPlainObject(value);
  return (
    <div className="font-mono text-[11.5px] leading-relaxed" data-result-tree>
      {container && !summaryOf(value).startsWith('0 ') ? (
        <Children value={value} depth={0} root />
      ) : (
        <Node name={null} value={value} depth={0} />
      )}
    </div>
  );
}
