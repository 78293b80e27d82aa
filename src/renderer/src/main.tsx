import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';

function App(): React.JSX.Element {
  return (
    <main className="flex h-screen items-center justify-center bg-neutral-950 text-neutral-100">
      <h1 className="text-xl font-semibold">Plugboard</h1>
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
