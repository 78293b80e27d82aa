/** An array of flat objects as a table: one column per key, in the order keys first appear. */
import type { JSX } from 'react';
import { scalarText, type Scalar, type Table } from './result-shape';

function Cell({ value }: { value: Scalar | undefined }): JSX.Element {
  if (value === undefined) return <td className="px-2 py-1" />;
  const numeric = typeof value === 'number';
  const tone = value === null || typeof value === 'boolean' ? 'text-fg-subtle' : '';
  return (
    <td className={`px-2 py-1 align-top ${numeric ? 'text-right tabular-nums' : ''} ${tone}`}>{scalarText(value)}</td>
  );
}

/** A column of numbers only reads right-aligned, its header too. */
function numericColumns(table: Table): Set<string> {
  return new Set(
    table.columns.filter((c) =>
      table.rows.every((r) => r[c] === undefined || r[c] === null || typeof r[c] === 'number'),
    ),
  );
}

export function ResultTable({ table, label }: { table: Table; label?: string }): JSX.Element {
  const numeric = numericColumns(table);
  return (
    <div className="max-w-full overflow-x-auto rounded-md border border-line" data-result-table>
      <table className="w-full border-collapse text-left font-mono text-[11.5px]">
        {label && <caption className="sr-only">{label}</caption>}
        <thead className="bg-muted text-fg-muted">
          <tr>
            {table.columns.map((c) => (
              <th
                key={c}
                scope="col"
                className={`border-b border-line px-2 py-1 font-semibold whitespace-nowrap ${numeric.has(c) ? 'text-right' : ''}`}
              >
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, i) => (
            <tr key={i} className="border-b border-line last:border-b-0 even:bg-subtle">
              {table.columns.map((c) => (
                <Cell key={c} value={row[c]} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
