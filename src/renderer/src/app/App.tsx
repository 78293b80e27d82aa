/** The window: toolbar, conversations, chat, plugin panel, and what floats above them. */
import { useEffect, type JSX } from 'react';
import { LiveAnnouncer } from '../components/LiveAnnouncer';
import { ExternalApprovals } from '../features/approvals/ExternalApprovals';
import { ChatView } from '../features/chat/ChatView';
import { ConversationSidebar } from '../features/chat/ConversationSidebar';
import { DropZone } from '../features/install/DropZone';
import { CatalogDialog } from '../features/install/CatalogDialog';
import { InstallDialog } from '../features/install/InstallDialog';
import { PluginPanel } from '../features/plugins/PluginPanel';
import { UpdatesDialog } from '../features/plugins/UpdatesDialog';
import { SettingsDialog } from '../features/settings/SettingsDialog';
import { useConnection } from '../stores/connection';
import { useUi } from '../stores/ui';
import { HelpDialog } from './HelpDialog';
import { NoToken } from './NoToken';
import { ReconnectBar } from './ReconnectBar';
import { SaveStateBar } from './SaveStateBar';
import { installShortcuts } from './shortcuts';
import { Toasts } from './Toasts';
import { ToolFormHost } from './ToolFormHost';
import { Toolbar } from './Toolbar';

export function App(): JSX.Element {
  const noToken = useConnection((s) => s.state.status === 'no-token');
  const restarted = useConnection((s) => s.state.status === 'no-token' && s.state.restarted === true);
  const sidebarOpen = useUi((s) => s.sidebarOpen);
  const panelOpen = useUi((s) => s.panelOpen);
  useEffect(() => installShortcuts(), []);
  if (noToken) return <NoToken restarted={restarted} />;
  return (
    <div className="flex h-full flex-col">
      <ReconnectBar />
      <SaveStateBar />
      <Toolbar />
      <div className="relative flex min-h-0 flex-1">
        {sidebarOpen && <ConversationSidebar />}
        <ChatView />
        {panelOpen && <PluginPanel />}
      </div>
      <DropZone />
      <InstallDialog />
      <CatalogDialog />
      <UpdatesDialog />
      <HelpDialog />
      <SettingsDialog />
      <ToolFormHost />
      <ExternalApprovals />
      <Toasts />
      <LiveAnnouncer />
    </div>
  );
}
