/**
 * The conversation store's door: conversations, their messages and attached files in SQLite, held
 * by one Plugboard at a time, with writes that survive a crash and a full disk (store.ts says how).
 */
export {
  ConversationStore,
  StoreOpenError,
  type SaveState,
  type SearchHit,
  type StoredFile,
  type StoreOptions,
} from './store';
