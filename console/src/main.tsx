import '@ant-design/v5-patch-for-react-19';
import { createRoot } from 'react-dom/client';
import { captureGlobalErrors } from './lib/error-log';
import { isLoginPath, session } from './lib/session';
import { initI18n } from './i18n';
import { appState, loadAppState, resetAppState } from './providers/app-state';
import { App } from './App';
import './styles.css';
// the organisation form's first administrator (a lazily loaded widget)
import './components/first-admin/register';

captureGlobalErrors();
// marks for the start-up waterfall (bench/map/map-bench.ts prints every `shell:` mark)
performance.mark('shell:main');
// A signed-in load starts the session (identity, access, metadata, plugins, then the page's
// chunk) and the layout chunk now, beside i18n, not after mount; React's first render waits
// for it so the main thread is free for those answers and the first render is the real shell
// (index.html shows the same spinner until then).
const signedIn = Boolean(session.token()) && !isLoginPath(location.pathname);
const sessionReady = signedIn ? loadAppState() : undefined;
if (signedIn) void import('./components/layout/main-layout').catch(() => undefined);
void Promise.all([initI18n(), sessionReady]).then(() => {
  // a failure seen before the texts were there is asked again, to show it in the user's language
  if (appState.get().status === 'error') resetAppState();
  performance.mark('shell:render');
  createRoot(document.getElementById('root')!).render(<App />);
});
