/**
 * The renderer's entry: the perf probe first (it must exist before any stream), then the stores
 * (which connect to the API and subscribe to its events), then the UI.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { installPerfProbe } from './perf/probe';
import { startStores } from './stores/start';
import './styles.css';

installPerfProbe();
startStores();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
