import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { watchPageLeaving } from './lib/page-leaving';
import './app/app.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

// before the first fetch: a fetch cut off by leaving the page is no failure (lib/page-leaving.ts)
watchPageLeaving();

createRoot(rootElement).render(
  <StrictMode>
    <AppProvider />
  </StrictMode>,
);
