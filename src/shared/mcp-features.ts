/**
 * What an MCP server offers besides tools, as the screen and the assistant see it: resources a
 * person may attach, and prompts a person runs as commands (`prompts/get` fills the composer).
 */
import type { IconSpec, IconView } from './apps';

export interface ResourceView {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One part of what `resources/read` answered: text, or bytes in base64. */
export interface ResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface PromptArgumentView {
  name: string;
  description?: string;
  required: boolean;
}

export interface PromptView {
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgumentView[];
  /** Its server's icons as given; the service replaces them with `icon` before the screen sees them. */
  icons?: IconSpec[];
  /** Its icon, ready to show (`data:` URIs only). */
  icon?: IconView;
}

/** A prompt filled in by its server: its messages as text, and the person's turn to send. */
export interface PromptFilled {
  description?: string;
  messages: Array<{ role: 'user' | 'assistant'; text: string }>;
  /** The user messages joined: what goes into the composer. */
  text: string;
}
