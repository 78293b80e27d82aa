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
        {view.kind === 'table' && view.title && !raw && (
          <p className="font-mono text-[11.5px] text-fg-muted">{view.title}</p>
        )}
        <span className="ml-auto" />
        <button
          type="button"
          aria-pressed={raw}
          onClick={() => setRaw(!raw)}
          title={raw ? 'Show the result as a table or tree' : 'Show the JSON as it came'}
          className={`h-6 rounded-md border px-2 text-xs font-medium ${raw ? 'border-accent/40 bg-accent-soft text-accent' : 'border-line text-fg-muted hover:bg-muted hover:text-fg'}`}
        >
          Raw
        </button>
        <CopyButton text={() => resultText(value)} label="Copy JSON" title="Copy the result as JSON" />
      </div>
      {raw ? (
        <pre className="max-h-96 overflow-auto rounded-md border border-line bg-subtle px-2.5 py-2 font-mono text-xs">
          {resultText(value)}
        </pre>
      ) : view.kind === 'table' ? (
        <ResultTable table={view.table} label={view.title ?? 'Result'} />
      ) : (
        <JsonTree value={value} />
      )}
    </div>
  );
}
