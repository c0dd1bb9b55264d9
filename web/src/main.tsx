// First: before any schema of the contracts is created.
import './lib/zod-without-eval';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { adoptCspNonce } from './lib/csp-nonce';
import { captureViewAsToken } from './lib/view-as-token';
import './styles/global.css';

adoptCspNonce();
// A view-as tab's grant leaves the address bar before the first request (docs/adr/0014).
captureViewAsToken();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// The public pages come prerendered (web/scripts/prerender.mjs): React takes over their markup;
// any other page arrives as the empty shell and is rendered here.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
