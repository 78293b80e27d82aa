/**
 * A tool's result that is not text (an object, an array; MCP structuredContent arrives as one):
 * a table or a tree as its shape decides (result-shape.ts), with "Raw" to see the JSON as it came
 * and a copy of it.
 */
import { useState, type JSX } from 'react';
import { resultText } from '../../../../../shared/chunks';
import { CopyButton } from '../../../components/CopyButton';
import { JsonTree } from './JsonTree';
import { resultView } from './result-shape';
import { ResultTable } from './ResultTable';

export function ResultView({ value }: { value: unknown }): JSX.Element {
  const [raw, setRaw] = useState(false);
  const view = resultView(value);
  if (view.kind === 'text') return <pre className="font-mono text-xs whitespace-pre-wrap">{view.text}</pre>;
  return (
    <div className="space-y-1" data-result-view={raw ? 'raw' : view.kind}>
      <div className="flex items-center gap-1">
        <button
          type="button"
          aria-pressed={raw}
          onClick={() => setRaw(!raw)}
          className={`h-6 rounded-md px-2 text-xs font-medium ${raw ? 'bg-muted text-fg' : 'text-fg-muted hover:bg-muted hover:text-fg'}`}
        >
          Raw
        </button>
        <CopyButton text={() => resultText(value)} label="Copy JSON" title="Copy the result as JSON" />
      </div>
      {raw ? (
        <pre className="max-h-96 overflow-auto rounded-md border border-line bg-subtle px-2.5 py-2 font-mono text-xs">{resultText(value)}</pre>
      ) : view.kind === 'table' ? (
        <ResultTable table={view.table} label="Result" />
      ) : (
        <JsonTree value={value} />
      )}
    </div>
  );
}
