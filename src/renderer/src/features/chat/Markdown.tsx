/**
 * A finished message's text as GFM markdown, where a single line break is a line break (plugin
 * output is line-oriented; see soft-breaks.ts). Raw HTML is not rendered (react-markdown's default),
 * links open outside the app, and images become links: the CSP blocks remote images, and a
 * plugin's output should not load things from the network on its own. Fenced code blocks are
 * highlighted (code/CodeBlock.tsx). This module and react-markdown are a chunk of their own,
 * loaded when the first markdown is shown (LazyMarkdown.tsx).
 */
import { memo, type JSX } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './code/CodeBlock';
import { codeOfPre } from './code/code-of-pre';
import { remarkSoftBreaks } from './soft-breaks';

const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
  // A fenced block is highlighted; inline code stays as it is.
  pre: ({ node, children }) => {
    const block = codeOfPre(node);
    return block ? <CodeBlock code={block.code} language={block.language} /> : <pre>{children}</pre>;
  },
  img: ({ src, alt }) => (
    <a href={typeof src === 'string' ? src : undefined} target="_blank" rel="noreferrer noopener">
      {alt ? `[image: ${alt}]` : '[image]'}
    </a>
  ),
};

const plugins = [remarkGfm, remarkSoftBreaks];

/** `streaming`: the text is still being written, and a caret follows it (markdown.css). */
export const Markdown = memo(function Markdown({
  text,
  streaming = false,
}: {
  text: string;
  streaming?: boolean;
}): JSX.Element {
  return (
    <div className={streaming ? 'md md-streaming' : 'md'}>
      <ReactMarkdown remarkPlugins={plugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
