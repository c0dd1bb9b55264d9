// First: before any schema of the contracts is created.
import './lib/zod-without-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { captureViewAsToken } from './lib/view-as-token';
import './styles/global.css';

// A view-as tab's grant leaves the address bar before the first request (docs/adr/0014).
captureViewAsToken();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
